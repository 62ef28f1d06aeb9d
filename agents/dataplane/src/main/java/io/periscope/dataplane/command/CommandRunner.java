package io.periscope.dataplane.command;

/**
 * Runs programs: the one place where the dataplane agent, and the lab that builds nodes out of
 * network namespaces, touch the kernel. The real implementation is {@link ProcessCommandRunner};
 * tests use the recording runner of this module's test-jar.
 */
public interface CommandRunner {

    /**
     * Runs the command to completion, whatever its exit status: for callers that read a failure
     * themselves (a probe's ping that did not get through is an answer, not an error).
     *
     * @throws CommandFailedException when it could not start, gave no answer in time or the wait was interrupted
     */
    CommandResult execute(Command command);

    /**
     * Runs the command to completion.
     *
     * @return what it printed, when it exited with status 0
     * @throws CommandFailedException when it could not start or exited with another status
     */
    default CommandResult run(Command command) {
        CommandResult result = execute(command);
        if (!result.succeeded()) {
            throw new CommandFailedException(command, result);
        }
        return result;
    }

    /**
     * Starts the program and returns without waiting for it (a server others talk to, one of several
     * clients that run at once). A runner that cannot run programs in the background runs it to
     * completion here (the recording runner of unit tests).
     */
    default RunningProgram start(Command command) {
        return RunningProgram.ended(execute(command));
    }
}
