package io.periscope.lab.shell;

/** What a finished program printed and how it exited. */
public record ShellResult(int exitCode, String stdout, String stderr) {

    public boolean succeeded() {
        return exitCode == 0;
    }
}
