package io.periscope.dataplane.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;

import java.util.ArrayList;
import java.util.List;

/**
 * A northbound database reached with {@code ovn-nbctl} through a {@link CommandRunner}: one run lists
 * the tables as JSON, one run applies a transaction.
 *
 * @param database an OVSDB remote, {@code unix:/var/run/ovn/ovnnb_db.sock} or {@code tcp:IP:6641}
 */
public record NbctlNorthbound(CommandRunner runner, String database) implements Northbound {

    public static final String PROGRAM = "ovn-nbctl";

    @Override
    public NorthboundState read() {
        List<String> argv = new ArrayList<>(List.of(PROGRAM, "--db=" + database, "--format=json"));
        for (String table : NbctlListParser.TABLES) {
            if (argv.size() > 3) {
                argv.add("--");
            }
            argv.add("list");
            argv.add(table);
        }
        return NbctlListParser.parse(runner.run(new Command(argv, "")).stdout());
    }

    @Override
    public void apply(List<NbChange> changes, NorthboundState readBefore) {
        if (changes.isEmpty()) {
            return;
        }
        List<String> argv = new ArrayList<>(List.of(PROGRAM, "--db=" + database));
        argv.addAll(NbctlTransaction.arguments(changes, readBefore));
        runner.run(new Command(argv, ""));
    }
}
