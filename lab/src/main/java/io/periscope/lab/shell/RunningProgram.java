package io.periscope.lab.shell;

import java.time.Duration;

/**
 * A program {@link Shell#start} started and did not wait for: a server that runs while others talk to
 * it, or one of several clients that run at once. It runs until it ends by itself or is stopped.
 */
public interface RunningProgram {

    /**
     * Waits until the program ends, at most {@code timeout}; a program still running then is stopped.
     *
     * @return what it printed and how it exited (a stopped program's exit status is the kill's)
     */
    ShellResult await(Duration timeout);

    /** Ends the program now (SIGKILL) if it still runs; nothing when it already ended. */
    void stop();

    boolean running();

    /** A program that already ended with {@code result}: what a shell that runs nothing in the background answers. */
    static RunningProgram ended(ShellResult result) {
        return new RunningProgram() {
            @Override
            public ShellResult await(Duration timeout) {
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
