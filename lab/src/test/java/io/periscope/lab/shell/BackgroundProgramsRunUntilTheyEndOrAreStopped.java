package io.periscope.lab.shell;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Shell#start}: a program that runs while the caller goes on (the bench's iperf3 servers and
 * clients), whose output is kept, which a timeout or {@code stop} ends, and which an interrupted
 * command's {@link ProcessShell#stopRunning} ends like any other.
 */
class BackgroundProgramsRunUntilTheyEndOrAreStopped {

    @Test
    void aProgramRunsInTheBackgroundAndItsOutputIsKept() {
        RunningProgram program = new ProcessShell().start(Invocation.of("sh", "-c", "sleep 0.2; echo done; echo oops >&2"));

        assertThat(program.running()).isTrue();
        ShellResult result = program.await(Duration.ofSeconds(10));

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).isEqualTo("done\n");
        assertThat(result.stderr()).isEqualTo("oops\n");
        assertThat(program.running()).isFalse();
    }

    @Test
    void stoppingEndsItAndAwaitingPastTheTimeoutStopsIt() {
        RunningProgram stopped = new ProcessShell().start(Invocation.of("sleep", "30"));
        stopped.stop();
        long start = System.nanoTime();
        assertThat(stopped.await(Duration.ofSeconds(10)).exitCode()).isNotZero();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));

        RunningProgram late = new ProcessShell().start(Invocation.of("sleep", "30"));
        assertThat(late.await(Duration.ofMillis(200)).exitCode()).isNotZero();
        assertThat(late.running()).isFalse();
    }

    @Test
    void anInterruptedCommandsStopEndsBackgroundProgramsToo() {
        RunningProgram program = new ProcessShell().start(Invocation.of("sleep", "30"));

        assertThat(ProcessShell.stopRunning()).isPositive();

        assertThat(program.await(Duration.ofSeconds(5)).exitCode()).isNotZero();
    }

    @Test
    void aShellThatRunsNothingInTheBackgroundRunsItToTheEnd() {
        RecordingShell shell = new RecordingShell(invocation -> new ShellResult(0, "ran", ""));

        RunningProgram program = shell.start(Invocation.of("iperf3", "-s"));

        assertThat(program.running()).isFalse();
        assertThat(program.await(Duration.ZERO).stdout()).isEqualTo("ran");
        assertThat(shell.invocations()).extracting(Invocation::argv).containsExactly(java.util.List.of("iperf3", "-s"));
    }
}
