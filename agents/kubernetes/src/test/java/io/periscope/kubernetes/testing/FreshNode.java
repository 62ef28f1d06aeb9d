package io.periscope.kubernetes.testing;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.RecordingCommandRunner;

import java.util.List;

/**
 * A node that has none of Periscope's state: the readers get empty answers ({@code []} from the
 * JSON ones), and every write is recorded, so a test sees exactly what an agent would program.
 */
public final class FreshNode {

    private final RecordingCommandRunner runner = new RecordingCommandRunner()
            .answer(c -> c.argv().contains("-j"), c -> CommandResult.success("[]"));

    public RecordingCommandRunner runner() {
        return runner;
    }

    /** What was written: the batch programs' input, not the reads. */
    public List<Command> writes() {
        return runner.commands().stream().filter(c -> !c.stdin().isEmpty() || c.argv().contains("-w")).toList();
    }

    /** Every input given to a program named {@code program} (e.g. {@code iptables-restore}), joined. */
    public String inputTo(String program) {
        StringBuilder text = new StringBuilder();
        for (Command command : runner.commands()) {
            if (command.program().equals(program)) {
                text.append(command.stdin());
            }
        }
        return text.toString();
    }

    /** The input of the last run of {@code program}: what the latest reconcile wrote. */
    public String lastInputTo(String program) {
        List<Command> runs = runner.commands().stream().filter(c -> c.program().equals(program) && !c.stdin().isEmpty()).toList();
        return runs.isEmpty() ? "" : runs.getLast().stdin();
    }

    public void forget() {
        runner.clear();
    }
}
