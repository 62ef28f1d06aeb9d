package io.periscope.dataplane.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A {@link CommandRunner} for tests: it records every command and answers from rules given by the
 * test (the first rule whose condition holds wins). A command no rule answers goes to the wrapped
 * runner if there is one ({@link #wrapping}), and otherwise succeeds with no output.
 */
public final class RecordingCommandRunner implements CommandRunner {

    private record Answer(Predicate<Command> when, Function<Command, CommandResult> result) {
    }

    private final List<Answer> answers = new ArrayList<>();
    private final List<Command> commands = new ArrayList<>();
    private final Optional<CommandRunner> wrapped;

    public RecordingCommandRunner() {
        this.wrapped = Optional.empty();
    }

    private RecordingCommandRunner(CommandRunner wrapped) {
        this.wrapped = Optional.of(wrapped);
    }

    /** Records the commands and lets {@code real} run those no rule answers. */
    public static RecordingCommandRunner wrapping(CommandRunner real) {
        return new RecordingCommandRunner(real);
    }

    /** Answers commands whose arguments start with {@code argvPrefix} with {@code stdout}. */
    public RecordingCommandRunner answer(List<String> argvPrefix, String stdout) {
        return answer(startsWith(argvPrefix), c -> CommandResult.success(stdout));
    }

    public RecordingCommandRunner answer(Predicate<Command> when, Function<Command, CommandResult> result) {
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
    public CommandResult run(Command command) {
        commands.add(command);
        Optional<Answer> answer = answers.stream().filter(a -> a.when().test(command)).findFirst();
        if (answer.isEmpty() && wrapped.isPresent()) {
            return wrapped.get().run(command);
        }
        CommandResult result = answer.map(a -> a.result().apply(command)).orElse(CommandResult.success(""));
        if (!result.succeeded()) {
            throw new CommandFailedException(command, result);
        }
        return result;
    }

    /** Every command run so far, in order. */
    public List<Command> commands() {
        return List.copyOf(commands);
    }

    public void clear() {
        commands.clear();
    }
}
