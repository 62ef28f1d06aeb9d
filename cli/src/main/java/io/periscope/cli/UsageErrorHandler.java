package io.periscope.cli;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;

/**
 * Bad arguments get one line saying what is wrong and where to look, not the whole usage text:
 * the mistake stays visible at the bottom of the terminal.
 */
final class UsageErrorHandler implements IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        PrintWriter err = command.getErr();
        java.util.List<String> unmatched = command.getUnmatchedArguments();
        if (!(ex instanceof UnmatchedArgumentException) && !unmatched.isEmpty()) {
            // A misspelt option is the cause of the rest (a value it swallowed shows up as missing): name it first.
            ParameterException unknown = new UnmatchedArgumentException(command, unmatched);
            err.println(name + ": " + unknown.getMessage());
            UnmatchedArgumentException.printSuggestions(unknown, err);
        } else {
            err.println(name + ": " + ex.getMessage());
            UnmatchedArgumentException.printSuggestions(ex, err);
        }
        err.println("Try '" + name + " --help' for more information.");
        err.flush();
        return ExitStatus.BAD_INPUT;
    }
}
