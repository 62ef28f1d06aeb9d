package io.periscope.cli;

import io.periscope.visualizer.export.PictureWarmUp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code periscope}: the root of the command tree. It does nothing by itself; run without a
 * subcommand it says one is missing. The command attributes (help and version options, the version
 * provider) and {@code --debug} are inherited by every subcommand.
 *
 * <p>The subcommands are not in the annotation: picocli would then build every one of them (reflection
 * over each command's options, each command's static state) before running any, which was most of a
 * small command's start-up. {@link #commandLine(String[])} builds only the one a command line names.
 */
@Command(name = "periscope",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = PeriscopeVersion.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Traces packets through a Submariner-style cluster set described in a topology file, "
                + "shows what the agents would program on each node, and builds the same topology as a lab of network namespaces.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:a flow's expectation failed (in the lab: real packets disagreed with the simulation)",
            "2:a bad topology file or bad arguments",
            "3:an internal error in periscope",
            "130:interrupted by Ctrl-C (143: by SIGTERM); what it had started is stopped and removed"
        })
public final class PeriscopeCommand {

    /** Every subcommand by its {@code @Command} name, in the order help lists them; made only when needed. */
    static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    /** Root options that ask only for the version, or change nothing about which commands exist. */
    private static final Set<String> VERSION_ONLY = Set.of("-V", "--version", ExecutionErrorHandler.DEBUG_OPTION);

    @Option(names = ExecutionErrorHandler.DEBUG_OPTION, scope = ScopeType.INHERIT,
            description = "print the stack trace of an internal error")
    private boolean debug;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Interruption.handleSignals(err);
        int status = run(args, out, err);
        out.flush();
        err.flush();
        System.exit(status);
    }

    /** Runs one command line and returns its exit status; never exits the JVM, so tests can call it. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // picocli's classes are Java 5 class files, which the JVM's start-up cache cannot hold:
            // loading and verifying them was most of --version, which needs no parsing.
            for (String line : new PeriscopeVersion().getVersion()) {
                out.println(line);
            }
            return ExitStatus.OK;
        }
        if (drawsAPicture(List.of(args))) {
            // Loading the layout engine's Java 5 classes (no start-up cache holds them) beside parsing and planning.
            PictureWarmUp.start();
        }
        CommandLine commandLine = commandLine(args);
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    /** The whole configured command tree, for callers that walk it (documentation, tests). */
    public static CommandLine commandLine() {
        return tree(SUBCOMMANDS.keySet());
    }

    /**
     * The tree as far as {@code args} need it: the subcommand they name; none when they ask only for
     * the version; all of them otherwise (help lists them, and a misspelt name gets suggestions).
     */
    static CommandLine commandLine(String[] args) {
        return tree(subcommandsNeeded(List.of(args)));
    }

    /** {@code trace ... --html/--dot} and {@code serve}: the commands that lay out a picture. */
    static boolean drawsAPicture(List<String> args) {
        String command = args.stream().filter(arg -> !arg.startsWith("-")).findFirst().orElse("");
        return command.equals("serve") || command.equals("trace")
                && args.stream().anyMatch(arg -> arg.equals("--html") || arg.equals("--dot") || arg.startsWith("--html=") || arg.startsWith("--dot="));
    }

    static Set<String> subcommandsNeeded(List<String> args) {
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                return SUBCOMMANDS.containsKey(arg) ? Set.of(arg) : SUBCOMMANDS.keySet();
            }
        }
        boolean versionOnly = !args.isEmpty() && VERSION_ONLY.containsAll(args)
                && (args.contains("-V") || args.contains("--version"));
        return versionOnly ? Set.of() : SUBCOMMANDS.keySet();
    }

    private static CommandLine tree(Set<String> names) {
        CommandLine commandLine = new CommandLine(new PeriscopeCommand());
        SUBCOMMANDS.forEach((name, command) -> {
            if (names.contains(name)) {
                commandLine.addSubcommand(name, command.get());
            }
        });
        // After the subcommands: picocli hands these to the subcommands that exist when they are set.
        commandLine.setParameterExceptionHandler(new UsageErrorHandler())
                .setExecutionExceptionHandler(new ExecutionErrorHandler());
        ExitCodeHelp.apply(commandLine);
        return commandLine;
    }

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("trace", TraceCommand::new);
        commands.put("plan", PlanCommand::new);
        commands.put("check", CheckCommand::new);
        commands.put("dns", DnsCommand::new);
        commands.put("serve", ServeCommand::new);
        commands.put("lab", LabCommand::new);
        commands.put("snapshot", SnapshotCommand::new);
        return java.util.Collections.unmodifiableMap(commands);
    }
}
