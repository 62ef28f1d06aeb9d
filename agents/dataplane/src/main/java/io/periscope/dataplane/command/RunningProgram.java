package io.periscope.dataplane.command;

import java.time.Duration;

/**
 * A program {@link CommandRunner#start} started and did not wait for: a server that runs while others
 * talk to it, or one of several clients that run at once. It runs until it ends by itself or is stopped.
 */
public interface RunningProgram {

    /**
     * Waits until the program ends, at most {@code timeout}; a program still running then is stopped.
     *
     * @return what it printed and how it exited (a stopped program's exit status is the kill's)
     */
    CommandResult await(Duration timeout);

    /** Ends the program now (SIGKILL) if it still runs; nothing when it already ended. */
    void stop();

    boolean running();

    /** A program that already ended with {@code result}: what a runner that runs nothing in the background answers. */
    static RunningProgram ended(CommandResult result) {
        return new RunningProgram() {
            @Override
            public CommandResult await(Duration timeout) {
                return result;
            }

            @Override
            public void stop() {
            }

            @Override
            public boolean running() {
                return false;
            }
        };
    }
}
