package io.periscope.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;

/** One in-process run of the command line, with what it printed. */
record PeriscopeRun(int status, String out, String err) {

    static PeriscopeRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = PeriscopeCommand.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new PeriscopeRun(status, out.toString(), err.toString());
    }

    static PeriscopeRun of(List<String> args) {
        return of(args.toArray(String[]::new));
    }

    /** The words that select every command of the tree, the root's being empty, e.g. [lab, probe]. */
    static List<List<String>> commandPaths() {
        List<List<String>> paths = new ArrayList<>();
        collect(PeriscopeCommand.commandLine(), List.of(), paths);
        return paths;
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
        paths.add(path);
        command.getSubcommands().forEach((name, sub) -> {
            List<String> subPath = new ArrayList<>(path);
            subPath.add(name);
            collect(sub, List.copyOf(subPath), paths);
        });
    }

    static List<String> with(List<String> path, String... more) {
        List<String> args = new ArrayList<>(path);
        args.addAll(List.of(more));
        return args;
    }
}
