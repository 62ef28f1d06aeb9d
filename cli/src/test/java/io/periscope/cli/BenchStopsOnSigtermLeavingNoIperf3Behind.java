package io.periscope.cli;

import io.periscope.lab.netns.NetworkNamespaces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * SIGTERM while {@code periscope lab bench} runs its iperf3 tests, in a process of its own: it says
 * so, exits 143, and no iperf3 (server or client) nor connection event listener (conntrack) is left in
 * the lab's namespaces; the lab stays up.
 * Only these programs are looked for: the lab's supervisor runs its agents' programs in the nodes' namespaces
 * every few seconds, which a look at all processes would catch now and then.
 */
class BenchStopsOnSigtermLeavingNoIperf3Behind {

    @RegisterExtension
    final ExampleLabOfATest example = new ExampleLabOfATest();

    @TempDir
    Path directory;

    @Test
    void sigtermWhileTheTestsRunExits143AndStopsEveryIperf3() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        List<String> lab = example.up(directory, "clitest-benchterm");

        CommandInAProcess bench = CommandInAProcess.start("lab", "bench", example.file().toString(), "--flows", "4", "--seconds", "60");
        // Signalled once its clients run: a server and a client are then in the lab's namespaces.
        boolean running = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (bench.alive() && !running && System.nanoTime() < deadline) {
            running = bench.said("bench: running ") && LabOnTheMachine.program(lab, "iperf3").size() >= 2;
            Thread.sleep(20);
        }
        assertThat(running).as("the bench's iperf3 programs were not seen running: %s", bench.output()).isTrue();
        bench.signal("TERM");
        assertThat(bench.ends(Duration.ofSeconds(30))).as("the bench ends").isTrue();

        assertThat(bench.exitValue()).as("%s", bench.output()).isEqualTo(143);
        assertThat(bench.output()).as("%s", bench.output()).anyMatch(l -> l.contains("periscope: terminated (SIGTERM)"))
                .noneMatch(l -> l.contains("internal error"));
        // Killed processes take a moment to be reaped, longer on a loaded machine; the loop ends once they are.
        long reaped = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(LabOnTheMachine.program(lab, "iperf3").isEmpty() && LabOnTheMachine.program(lab, "conntrack").isEmpty())
                && System.nanoTime() < reaped) {
            Thread.sleep(50);
        }
        assertThat(LabOnTheMachine.program(lab, "iperf3")).as("iperf3 left in the lab's namespaces").isEmpty();
        assertThat(LabOnTheMachine.program(lab, "conntrack")).as("the gateways' connection event listeners left").isEmpty();
        assertThat(LabOnTheMachine.namespaces(example.names())).as("the lab stays up").containsExactlyInAnyOrderElementsOf(lab);
    }
}
