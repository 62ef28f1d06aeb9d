package io.periscope.dataplane.command;

/**
 * Runs programs: the one place where the dataplane agent touches the kernel. The real
 * implementation is {@link ProcessCommandRunner}; tests use {@link RecordingCommandRunner}.
 */
public interface CommandRunner {

    /**
     * Runs the command to completion.
     *
     * @return what it printed, when it exited with status 0
     * @throws CommandFailedException when it could not start or exited with another status
     */
    CommandResult run(Command command);
}
