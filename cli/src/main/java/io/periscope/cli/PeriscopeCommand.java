package io.periscope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintWriter;

/**
 * {@code periscope}: the root of the command tree. It does nothing by itself; run without a
 * subcommand it says one is missing. The command attributes (help and version options, the version
 * provider) and {@code --debug} are inherited by every subcommand.
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
        },
        subcommands = {TraceCommand.class, PlanCommand.class, CheckCommand.class, DnsCommand.class, ServeCommand.class, LabCommand.class, SnapshotCommand.class})
public final class PeriscopeCommand {

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
        CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    /** The configured command tree, for callers that walk it (documentation, tests). */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new PeriscopeCommand())
                .setParameterExceptionHandler(new UsageErrorHandler())
                .setExecutionExceptionHandler(new ExecutionErrorHandler());
        ExitCodeHelp.apply(commandLine);
        return commandLine;
    }
}
