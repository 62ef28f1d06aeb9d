package io.periscope.lab.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A shell that runs nothing: it records every invocation and answers from a function, so the lab's
 * sequencing can be tested without root.
 */
public final class RecordingShell implements Shell {

    private final List<Invocation> invocations = new ArrayList<>();
    private final Function<Invocation, ShellResult> answers;

    public RecordingShell(Function<Invocation, ShellResult> answers) {
        this.answers = answers;
    }

    /** Every program succeeds and prints nothing. */
    public RecordingShell() {
        this(invocation -> new ShellResult(0, "", ""));
    }

    @Override
    public synchronized ShellResult execute(Invocation invocation) {
        invocations.add(invocation);
        return answers.apply(invocation);
    }

    public synchronized List<Invocation> invocations() {
        return List.copyOf(invocations);
    }
}
