package io.periscope.dataplane.command;

import java.util.ArrayList;
import java.util.List;

/**
 * One program run: its arguments and the text fed to its standard input (batch input for
 * {@code ip -batch -}, {@code iptables-restore}, {@code ipset restore}, a script for {@code sh -s};
 * empty for the readers).
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

    /**
     * The same program run inside a named network namespace ({@code ip netns exec NS ...}), written
     * into its arguments: what is recorded and what a failure names is then the whole command line,
     * which is what the lab wants to show. (A runner that puts every program into one namespace is
     * {@link ProcessCommandRunner#inNamespace}.)
     */
    public Command inNamespace(String namespace) {
        List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        wrapped.addAll(argv);
        return new Command(wrapped, stdin);
    }

    public String program() {
        return argv.getFirst();
    }

    /** The command line as a person would type it, with the size of its input if it has one. */
    @Override
    public String toString() {
        String line = String.join(" ", argv);
        return stdin.isEmpty() ? line : line + " (" + stdin.lines().count() + " lines of input)";
    }
}
