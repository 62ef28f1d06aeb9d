package io.periscope.dataplane.command;

import java.util.List;

/**
 * One program run: its arguments and the text fed to its standard input (batch input for
 * {@code ip -batch -}, {@code iptables-restore}, {@code ipset restore}; empty for the readers).
 */
public record Command(List<String> argv, String stdin) {

    public Command {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("a command needs a program");
        }
    }

    public static Command of(String... argv) {
        return new Command(List.of(argv), "");
    }

    public Command withStdin(String text) {
        return new Command(argv, text);
    }

    public String program() {
        return argv.getFirst();
    }

    /** The command line as a person would type it, with the size of its input if it has one. */
    @Override
    public String toString() {
        String line = String.join(" ", argv);
        if (stdin.isEmpty()) {
            return line;
        }
        long lines = stdin.lines().count();
        return line + " (with " + lines + (lines == 1 ? " line" : " lines") + " of input)";
    }
}
