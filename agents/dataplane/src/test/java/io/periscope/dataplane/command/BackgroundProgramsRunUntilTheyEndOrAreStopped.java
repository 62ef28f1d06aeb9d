package io.periscope.dataplane.command;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CommandRunner#start}: a program that runs while the caller goes on (the bench's iperf3 servers and
 * clients), whose output is kept, which a timeout or {@code stop} ends, and which an interrupted
 * command's {@link ProcessCommandRunner#stopRunning} ends like any other.
 */
class BackgroundProgramsRunUntilTheyEndOrAreStopped {

    @Test
    void aProgramRunsInTheBackgroundAndItsOutputIsKept() {
        RunningProgram program = ProcessCommandRunner.here().start(Command.of("sh", "-c", "sleep 0.2; echo done; echo oops >&2"));

        assertThat(program.running()).isTrue();
        CommandResult result = program.await(Duration.ofSeconds(10));

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).isEqualTo("done\n");
        assertThat(result.stderr()).isEqualTo("oops\n");
        assertThat(program.running()).isFalse();
    }

    @Test
    void stoppingEndsItAndAwaitingPastTheTimeoutStopsIt() {
        RunningProgram stopped = ProcessCommandRunner.here().start(Command.of("sleep", "30"));
        stopped.stop();
        long start = System.nanoTime();
        assertThat(stopped.await(Duration.ofSeconds(10)).exitCode()).isNotZero();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));

        RunningProgram late = ProcessCommandRunner.here().start(Command.of("sleep", "30"));
        assertThat(late.await(Duration.ofMillis(200)).exitCode()).isNotZero();
        assertThat(late.running()).isFalse();
    }

    @Test
    void anInterruptedCommandsStopEndsBackgroundProgramsToo() {
        RunningProgram program = ProcessCommandRunner.here().start(Command.of("sleep", "30"));

        assertThat(ProcessCommandRunner.stopRunning()).isPositive();

        assertThat(program.await(Duration.ofSeconds(5)).exitCode()).isNotZero();
    }

    @Test
    void aRunnerThatRunsNothingInTheBackgroundRunsItToTheEnd() {
        RecordingCommandRunner runner = new RecordingCommandRunner(command -> new CommandResult(0, "ran", ""));

        RunningProgram program = runner.start(Command.of("iperf3", "-s"));

        assertThat(program.running()).isFalse();
        assertThat(program.await(Duration.ZERO).stdout()).isEqualTo("ran");
        assertThat(runner.commands()).extracting(Command::argv).containsExactly(java.util.List.of("iperf3", "-s"));
    }
}
