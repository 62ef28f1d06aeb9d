package io.periscope.cli;

import picocli.CommandLine.Model.CommandSpec;

/** What a command whose engine is not part of this build says instead of pretending to work. */
final class UnavailableCommand {

    private UnavailableCommand() {
    }

    static int report(CommandSpec spec) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": not available in this build yet");
        return ExitStatus.BAD_INPUT;
    }
}
