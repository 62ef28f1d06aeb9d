package io.periscope.lab.shell;

import java.util.List;

/**
 * One program the lab runs: its arguments and what it reads on standard input (the batch text of
 * {@code ip -batch -}, {@code iptables-restore}; empty otherwise).
 */
public record Invocation(List<String> argv, String stdin) {

    public Invocation {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("an invocation needs a program");
        }
    }

    public static Invocation of(String... argv) {
        return new Invocation(List.of(argv), "");
    }

    public static Invocation of(List<String> argv) {
        return new Invocation(argv, "");
    }

    public Invocation withStdin(String text) {
        return new Invocation(argv, text);
    }

    /** The same program run inside a named network namespace. */
    public Invocation inNamespace(String namespace) {
        List<String> wrapped = new java.util.ArrayList<>(List.of("ip", "netns", "exec", namespace));
        wrapped.addAll(argv);
        return new Invocation(wrapped, stdin);
    }

    @Override
    public String toString() {
        String line = String.join(" ", argv);
        return stdin.isEmpty() ? line : line + " (" + stdin.lines().count() + " lines of input)";
    }
}
