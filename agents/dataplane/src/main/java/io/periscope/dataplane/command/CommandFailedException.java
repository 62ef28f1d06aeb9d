package io.periscope.dataplane.command;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A program did not succeed. The message names the command, its exit status and what it said on
 * standard error, which is what a person needs to see (iproute2, iptables and ipset say which input
 * line they refused); or, when it never gave an exit status, what went wrong (it could not start,
 * gave no answer in time).
 */
public final class CommandFailedException extends RuntimeException {

    // "Command failed -:3" (ip/bridge -batch), "Error in line 3:" (ipset restore),
    // "line 3: RULE_APPEND failed" (iptables-restore).
    private static final Pattern FAILED_LINE = Pattern.compile("(?:Command failed -:|Error in line |^line )(\\d+)", Pattern.MULTILINE);

    private final transient Command command;
    private final CommandResult result;

    /** The program exited with {@code result}'s status, which is not 0. */
    public CommandFailedException(Command command, CommandResult result) {
        super(command + " exited with status " + result.exitCode()
                + (result.stderr().isBlank() ? "" : ": " + result.stderr().strip()));
        this.command = command;
        this.result = result;
    }

    /** The program gave no exit status: {@code problem} says why. */
    public CommandFailedException(Command command, String problem) {
        super(command + ": " + problem);
        this.command = command;
        this.result = new CommandResult(-1, "", problem);
    }

    public Command command() {
        return command;
    }

    public CommandResult result() {
        return result;
    }

    /** The line of the batch input the program stopped at (1-based), when it said so. */
    public OptionalInt failedLine() {
        Matcher matcher = FAILED_LINE.matcher(result.stderr());
        return matcher.find() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
    }

    /**
     * The batch input line the program stopped at, as {@code input line N: TEXT}, when it named one.
     * Not part of the message: the input can hold what must not be shown (the lab's WireGuard script
     * carries keys); the agent's reconcile, whose input is rules and routes, adds it to its own.
     */
    public Optional<String> failedInput() {
        OptionalInt line = failedLine();
        if (line.isEmpty() || command.stdin().isEmpty()) {
            return Optional.empty();
        }
        return command.stdin().lines().skip(line.getAsInt() - 1L).findFirst()
                .map(input -> "input line " + line.getAsInt() + ": " + input);
    }
}
