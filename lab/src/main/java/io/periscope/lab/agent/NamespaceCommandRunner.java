package io.periscope.lab.agent;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.netns.NamespaceThread;

/**
 * Runs an agent's programs from a thread that lives in the node's namespace: a process inherits the
 * network namespace of the thread that starts it. Three times faster than {@code ip netns exec},
 * which also sets up a mount namespace for every program, and a reconcile runs a dozen programs.
 */
public final class NamespaceCommandRunner implements CommandRunner {

    private final NamespaceThread thread;
    private final CommandRunner here = ProcessCommandRunner.here();

    public NamespaceCommandRunner(NamespaceThread thread) {
        this.thread = thread;
    }

    @Override
    public CommandResult execute(Command command) {
        return thread.call(() -> here.execute(command));
    }

    @Override
    public String toString() {
        return "commands in namespace " + thread.namespace();
    }
}
