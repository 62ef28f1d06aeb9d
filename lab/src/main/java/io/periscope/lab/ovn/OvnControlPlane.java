package io.periscope.lab.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.periscope.lab.ovn.OvnPrograms.program;

/**
 * A cluster's OVN control plane: the northbound and southbound databases ({@code ovsdb-server} each)
 * and {@code ovn-northd}, run in the control-plane node's namespace (where ovnkube-master runs them
 * in OVN-Kubernetes), with their files in {@code DIR/central}. The nodes' ovn-controllers reach the
 * southbound database on its unix socket: the lab's namespaces share the machine's file system, and
 * a unix socket never touches the lab's network, so no packet of the control plane can be mistaken
 * for one of the cluster's.
 */
public final class OvnControlPlane {

    private final CommandRunner runner;
    private final String cluster;
    private final Path directory;
    private final List<OvnDaemon> daemons = new ArrayList<>();

    OvnControlPlane(CommandRunner runner, String cluster, Path directory) {
        this.runner = runner;
        this.cluster = cluster;
        this.directory = directory;
    }

    /** Creates both databases and starts their servers and ovn-northd in {@code namespace}. */
    void start(String namespace) {
        String owner = "cluster " + cluster + "'s control plane";
        for (String db : List.of("nb", "sb")) {
            Path file = directory.resolve(db + ".db");
            Path schema = db.equals("nb") ? OvnPrograms.OvnSchemas.NORTHBOUND : OvnPrograms.OvnSchemas.SOUTHBOUND;
            runner.run(Command.of(program("ovsdb-tool"), "create", file.toString(), schema.toString()));
            daemons.add(OvnDaemons.start("ovsdb-server", owner + " (" + db + " database)", namespace, directory, db, true,
                    List.of("--remote=punix:" + socket(db), file.toString())));
        }
        daemons.add(OvnDaemons.start("ovn-northd", owner, namespace, directory, "ovn-northd", true,
                List.of("--ovnnb-db=" + northbound(), "--ovnsb-db=" + southbound())));
    }

    public String northbound() {
        return "unix:" + socket("nb");
    }

    public String southbound() {
        return "unix:" + socket("sb");
    }

    public List<OvnDaemon> daemons() {
        return List.copyOf(daemons);
    }

    /** Runs one {@code ovn-nbctl} transaction: {@code commands} are its commands, each a list of words, joined by {@code --}. */
    CommandResult nbctl(List<List<String>> commands) {
        List<String> argv = new ArrayList<>(List.of(program("ovn-nbctl"), "--db=" + northbound(), "--timeout=20"));
        for (List<String> command : commands) {
            argv.add("--");
            argv.addAll(command);
        }
        return runner.run(new Command(argv, ""));
    }

    /** {@code ovn-sbctl} against the southbound database. */
    CommandResult sbctl(String... arguments) {
        List<String> argv = new ArrayList<>(List.of(program("ovn-sbctl"), "--db=" + southbound()));
        argv.addAll(List.of(arguments));
        return runner.run(new Command(argv, ""));
    }

    /**
     * Waits until every chassis has turned the northbound database's latest state into flows
     * ({@code ovn-nbctl --wait=hv sync}).
     *
     * @throws IllegalStateException naming ovn-northd's log when it does not happen in time
     */
    void awaitChassis() {
        try {
            runner.run(Command.of(program("ovn-nbctl"), "--db=" + northbound(), "--timeout=20", "--wait=hv", "sync"));
        } catch (CommandFailedException e) {
            throw new IllegalStateException("cluster " + cluster + "'s chassis did not apply the northbound database within 20 s ("
                    + e.getMessage() + ")" + OvnDaemons.logTail(directory.resolve("ovn-northd.log")), e);
        }
    }

    private Path socket(String db) {
        return directory.resolve(db + ".sock");
    }
}
