package io.periscope.dataplane.command;

/** What a finished program gave back. */
public record CommandResult(int exitCode, String stdout, String stderr) {

    public static CommandResult success(String stdout) {
        return new CommandResult(0, stdout, "");
    }

    public boolean succeeded() {
        return exitCode == 0;
    }
}
