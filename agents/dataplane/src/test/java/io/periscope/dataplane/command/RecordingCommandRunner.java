package io.periscope.dataplane.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A {@link CommandRunner} for tests that runs nothing itself: it records every command and answers
 * from rules given by the test (the first rule whose condition holds wins), so the agents' and the
 * lab's sequencing can be tested without root. A command no rule answers goes to the wrapped runner
 * if there is one ({@link #wrapping}), and otherwise to the default answer (success with no output,
 * unless the test gives its own). Safe to use from several threads, as the lab's parallel steps do.
 * Published to other modules' tests through this module's test-jar.
 */
public final class RecordingCommandRunner implements CommandRunner {

    private record Answer(Predicate<Command> when, Function<Command, CommandResult> result) {
    }

    private final List<Answer> answers = new ArrayList<>();
    private final List<Command> commands = new ArrayList<>();
    private final Optional<CommandRunner> wrapped;
    private final Function<Command, CommandResult> otherwise;

    /** Every command no rule answers succeeds and prints nothing. */
    public RecordingCommandRunner() {
        this(Optional.empty(), command -> CommandResult.success(""));
    }

    /** Every command no rule answers gets what {@code otherwise} says. */
    public RecordingCommandRunner(Function<Command, CommandResult> otherwise) {
        this(Optional.empty(), otherwise);
    }

    private RecordingCommandRunner(Optional<CommandRunner> wrapped, Function<Command, CommandResult> otherwise) {
        this.wrapped = wrapped;
        this.otherwise = otherwise;
    }

    /** Records the commands and lets {@code real} run those no rule answers. */
    public static RecordingCommandRunner wrapping(CommandRunner real) {
        return new RecordingCommandRunner(Optional.of(real), command -> CommandResult.success(""));
    }

    /** Answers commands whose arguments start with {@code argvPrefix} with {@code stdout}. */
    public RecordingCommandRunner answer(List<String> argvPrefix, String stdout) {
        return answer(startsWith(argvPrefix), c -> CommandResult.success(stdout));
    }

    public synchronized RecordingCommandRunner answer(Predicate<Command> when, Function<Command, CommandResult> result) {
        answers.add(new Answer(when, result));
        return this;
    }

    /** Makes commands whose arguments start with {@code argvPrefix} fail with {@code stderr}. */
    public RecordingCommandRunner fail(List<String> argvPrefix, String stderr) {
        return answer(startsWith(argvPrefix), c -> new CommandResult(1, "", stderr));
    }

    public static Predicate<Command> startsWith(List<String> argvPrefix) {
        return c -> c.argv().size() >= argvPrefix.size() && c.argv().subList(0, argvPrefix.size()).equals(argvPrefix);
    }

    @Override
    public CommandResult execute(Command command) {
        Optional<Answer> answer;
        synchronized (this) {
            commands.add(command);
            answer = answers.stream().filter(a -> a.when().test(command)).findFirst();
        }
        if (answer.isEmpty() && wrapped.isPresent()) {
            return wrapped.get().execute(command);
        }
        return answer.map(a -> a.result().apply(command)).orElseGet(() -> otherwise.apply(command));
    }

    /** Every command run so far, in order. */
    public synchronized List<Command> commands() {
        return List.copyOf(commands);
    }

    public synchronized void clear() {
        commands.clear();
    }
}
