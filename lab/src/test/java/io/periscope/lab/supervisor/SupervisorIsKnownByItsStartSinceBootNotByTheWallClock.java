package io.periscope.lab.supervisor;

import io.periscope.lab.state.SupervisorProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lab's supervisor is recognised by its pid and its start in ticks since boot, so a stepped wall clock
 * (which moves the start instant another JVM computes) does not make {@code lab failover} refuse a running
 * lab or {@code lab down} leave its supervisor running, while a pid reused by another process is still not
 * taken for the supervisor.
 */
class SupervisorIsKnownByItsStartSinceBootNotByTheWallClock {

    private Process process;

    @BeforeEach
    void startAProcess() throws Exception {
        process = new ProcessBuilder("sleep", "60").start();
    }

    @AfterEach
    void stopIt() throws Exception {
        process.destroyForcibly().waitFor();
    }

    @Test
    void aRunningProcessIsTheRecordedOneWhateverInstantTheWallClockGivesItNow() {
        long ticks = ProcessStart.ticksSinceBoot(process.pid()).orElseThrow();
        Instant instant = process.toHandle().info().startInstant().orElseThrow();
        // What a JVM that read the boot time after a one-second step of the clock computes for the same process.
        SupervisorProcess recorded = new SupervisorProcess(process.pid(), instant.plusSeconds(1).toString(), ticks, "/nowhere");

        assertThat(SupervisorStop.running(recorded)).isTrue();
    }

    @Test
    void aProcessThatStartedAtAnotherTickIsNotTheRecordedOneEvenWithItsPid() {
        long ticks = ProcessStart.ticksSinceBoot(process.pid()).orElseThrow();
        Instant instant = process.toHandle().info().startInstant().orElseThrow();
        SupervisorProcess reused = new SupervisorProcess(process.pid(), instant.toString(), ticks - 1, "/nowhere");

        assertThat(SupervisorStop.running(reused)).isFalse();
    }

    @Test
    void aStateFileWithoutTicksIsJudgedByItsInstant() {
        Instant instant = process.toHandle().info().startInstant().orElseThrow();

        assertThat(SupervisorStop.running(new SupervisorProcess(process.pid(), instant.toString(), 0, "/nowhere"))).isTrue();
        assertThat(SupervisorStop.running(new SupervisorProcess(process.pid(), instant.plusSeconds(1).toString(), 0, "/nowhere"))).isFalse();
    }

    @Test
    void theStartIsReadPastACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (java (lab) x) S 1 4242 4242 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 30 0 987654 123 45 18446744073709551615";

        assertThat(ProcessStart.parse(stat)).isEqualTo(OptionalLong.of(987654));
        assertThat(ProcessStart.parse("4242 (cut")).isEmpty();
        assertThat(ProcessStart.ticksSinceBoot(Long.MAX_VALUE)).isEmpty();
    }
}
