package io.periscope.dataplane.command;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A program exited with an error. The message names the command, its exit code, what it printed
 * on stderr and, for batch input, the input line it stopped at.
 */
public final class CommandFailedException extends RuntimeException {

    // "Command failed -:3" (ip/bridge -batch), "Error in line 3:" (ipset restore),
    // "line 3: RULE_APPEND failed" (iptables-restore).
    private static final Pattern FAILED_LINE = Pattern.compile("(?:Command failed -:|Error in line |^line )(\\d+)", Pattern.MULTILINE);

    private final transient Command command;
    private final CommandResult result;

    public CommandFailedException(Command command, CommandResult result) {
        super(describe(command, result));
        this.command = command;
        this.result = result;
    }

    public CommandFailedException(Command command, String reason) {
        this(command, new CommandResult(-1, "", reason));
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

    private static String describe(Command command, CommandResult result) {
        StringBuilder text = new StringBuilder("`").append(command).append("` failed");
        if (result.exitCode() >= 0) {
            text.append(" (exit ").append(result.exitCode()).append(')');
        }
        String stderr = result.stderr().strip();
        if (!stderr.isEmpty()) {
            text.append(": ").append(stderr);
        }
        OptionalInt line = FAILED_LINE.matcher(result.stderr()).results().findFirst()
                .map(m -> OptionalInt.of(Integer.parseInt(m.group(1)))).orElse(OptionalInt.empty());
        if (line.isPresent() && !command.stdin().isEmpty()) {
            command.stdin().lines().skip(line.getAsInt() - 1L).findFirst()
                    .ifPresent(input -> text.append("\n  at input line ").append(line.getAsInt()).append(": ").append(input));
        }
        return text.toString();
    }
}
