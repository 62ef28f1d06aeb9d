package io.periscope.cli;

import io.periscope.model.load.TopologyException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;

/**
 * Turns what a command throws into an exit code. A bad topology file is the user's to fix, so it
 * gets the loader's report and exit 2; anything else is periscope's fault and gets exit 3, with the
 * stack trace only when {@value #DEBUG_OPTION} asked for it.
 */
final class ExecutionErrorHandler implements IExecutionExceptionHandler {

    static final String DEBUG_OPTION = "--debug";

    @Override
    public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) {
        PrintWriter err = command.getErr();
        if (Interruption.happened()) {
            // The signal's handler said so already; this failure is the command being stopped.
            return Interruption.exitStatus();
        }
        if (ex instanceof TopologyException badFile) {
            err.print(badFile.report());
            err.flush();
            return ExitStatus.BAD_INPUT;
        }
        String message = ex.getMessage() == null ? ex.getClass().getName() : ex.getMessage();
        err.println(command.getCommandSpec().qualifiedName() + ": internal error: " + message);
        if (debugRequested(parseResult)) {
            ex.printStackTrace(err);
        } else {
            err.println("This is a bug in periscope; rerun with " + DEBUG_OPTION + " for the stack trace.");
        }
        err.flush();
        return ExitStatus.INTERNAL_ERROR;
    }

    /** The option is inherited, so it may have been given to the root or to any subcommand. */
    private static boolean debugRequested(ParseResult parseResult) {
        for (ParseResult level = parseResult; level != null; level = level.subcommand()) {
            if (level.hasMatchedOption(DEBUG_OPTION)) {
                return true;
            }
        }
        return false;
    }
}
