package io.periscope.cli;

import io.periscope.lab.netns.NetworkNamespaces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * SIGTERM while {@code periscope lab probe} runs, in a process of its own, once its captures are
 * open in the lab's namespaces: it says so, exits 143, and leaves nothing behind: no process in the
 * lab's namespaces (no {@code ping} it started), no packet socket there (its captures) and no
 * program of its own anywhere; the lab itself stays up, every namespace as {@code lab up} left it.
 * How fast it stops is measured by {@code scripts/benchmark-probe-stop}, not asserted here: the
 * wait below only keeps a probe that never ends from hanging the build.
 */
class ProbeStopsOnSigtermLeavingNothingBehind {

    @RegisterExtension
    final ExampleLabOfATest example = new ExampleLabOfATest();

    @TempDir
    Path directory;

    @Test
    void sigtermWhileCapturingExits143AndLeavesNothingBehind() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        List<String> lab = example.up(directory, "clitest-probeterm");
        assertThat(LabOnTheMachine.packetSockets(lab)).as("no capture before the probe").isZero();

        CommandInAProcess probe = CommandInAProcess.start("lab", "probe", example.file().toString());
        // Signalled while its captures are open in the lab (its echo servers with them), so that
        // what it must close on the signal is there to be closed.
        boolean capturing = false;
        while (probe.alive() && !capturing) {
            capturing = probe.lines().anyMatch(l -> l.contains(": capturing on ")) && LabOnTheMachine.packetSockets(lab) > 0;
        }
        assertThat(capturing).as("the probe ended before its captures were seen open: %s", probe.output()).isTrue();
        probe.signal("TERM");
        assertThat(probe.ends(Duration.ofSeconds(60))).as("the probe ends").isTrue();

        assertThat(probe.exitValue()).as("%s", probe.output()).isEqualTo(143);
        assertThat(probe.output()).as("%s", probe.output()).anyMatch(l -> l.contains("periscope: terminated (SIGTERM)"))
                .noneMatch(l -> l.contains("internal error"));
        assertThat(LabOnTheMachine.processesTheSupervisorDidNotStart(example.names(), lab)).as("processes left in the lab's namespaces").isEmpty();
        assertThat(LabOnTheMachine.packetSockets(lab)).as("packet sockets left in the lab's namespaces").isZero();
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(example.file().toString())))
                .as("a program of the probe's still running").isEmpty();
        assertThat(LabOnTheMachine.namespaces(example.names())).as("the lab stays up, as lab up left it")
                .containsExactlyInAnyOrderElementsOf(lab);
    }
}
