package io.periscope.lab.shell;

/**
 * A program the lab needed did not succeed. The message names the program, its exit status and what
 * it said on standard error, which is what a person needs to see (iproute2 and iptables say which
 * input line they refused).
 */
public final class ShellFailure extends RuntimeException {

    private final Invocation invocation;
    private final ShellResult result;

    public ShellFailure(Invocation invocation, ShellResult result) {
        super(invocation + " exited with status " + result.exitCode()
                + (result.stderr().isBlank() ? "" : ": " + result.stderr().strip()));
        this.invocation = invocation;
        this.result = result;
    }

    public ShellFailure(Invocation invocation, String problem) {
        super(invocation + ": " + problem);
        this.invocation = invocation;
        this.result = new ShellResult(-1, "", problem);
    }

    public Invocation invocation() {
        return invocation;
    }

    public ShellResult result() {
        return result;
    }
}
