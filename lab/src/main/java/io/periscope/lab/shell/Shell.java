package io.periscope.lab.shell;

/**
 * Runs the programs the lab drives (iproute2, iptables, ping). The one place the lab starts
 * processes: {@link ProcessShell} for real, a recording implementation in tests.
 */
public interface Shell {

    /** Runs to completion; the result whatever the exit status. */
    ShellResult execute(Invocation invocation);

    /** Runs to completion and returns standard output. @throws ShellFailure when the exit status is not 0 */
    default String run(Invocation invocation) {
        ShellResult result = execute(invocation);
        if (!result.succeeded()) {
            throw new ShellFailure(invocation, result);
        }
        return result.stdout();
    }

    /**
     * Starts the program and returns without waiting for it. A shell that cannot run programs in the
     * background runs it to completion here (the recording shell of unit tests).
     */
    default RunningProgram start(Invocation invocation) {
        return RunningProgram.ended(execute(invocation));
    }
}
