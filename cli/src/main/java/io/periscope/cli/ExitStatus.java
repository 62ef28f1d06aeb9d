package io.periscope.cli;

/**
 * The exit codes of every periscope command. Scripts and the acceptance checks branch on them, so
 * they never change meaning: 1 is reserved for "the network did not behave as the file expects".
 */
public final class ExitStatus {

    public static final int OK = 0;
    /** A flow's {@code expect} did not hold, or (in the lab) real packets disagreed with the simulation. */
    public static final int EXPECTATION_FAILED = 1;
    /** A topology file that cannot be used, or arguments that make no sense. */
    public static final int BAD_INPUT = 2;
    /** A fault in periscope itself, not in what the user gave it. */
    public static final int INTERNAL_ERROR = 3;
    /** Ctrl-C (SIGINT) ended the command, after it removed what it had half-built: 128 + 2, as shells report it. */
    public static final int INTERRUPTED = 130;
    /** SIGTERM ended the command, likewise: 128 + 15. */
    public static final int TERMINATED = 143;

    private ExitStatus() {
    }
}
