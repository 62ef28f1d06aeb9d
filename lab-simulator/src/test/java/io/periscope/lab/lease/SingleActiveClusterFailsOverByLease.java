package io.periscope.lab.lease;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.dataplane.election.LeaseTimings;
import io.periscope.lab.RunningLab;
import io.periscope.lab.failover.FailoverReport;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailover;
import io.periscope.lab.failover.UpLab;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster with one active gateway and a standby (multiActiveGateways off): the first gateway
 * holds the lab's lease for the cluster; crashed, it stops renewing, the standby takes the lease once
 * it ran out, its agent programs it as the active gateway, the worker routes to it and the remote
 * gateway sends to it, and the streams resume through it. Healed, the old gateway comes back as the
 * standby: the lease stays where it is, and {@code lab probe} finds the packets where the simulation
 * of the lab with gw-2 active puts them. Outcomes, and the loss window only against the lease's own
 * bounds.
 */
class SingleActiveClusterFailsOverByLease {

    static final String ACTIVE = "cluster1/gw-1";
    static final String STANDBY = "cluster1/gw-2";

    @TempDir
    Path state;

    private RunningLab lab;

    @AfterEach
    void removeTheLab() {
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void theStandbyTakesTheLeaseWhenTheActiveGatewayCrashesAndTrafficResumesThroughIt() throws Exception {
        RunningLab.assumeRoot();
        Assumptions.assumeTrue(onPath("nft"), "needs nft (nftables): lab failover's counters use it; apt-get install nftables");
        ClusterSet set = RunningLab.forTest(LeaseTopologies.singleActive(), "lease");
        // RunningLab.up starts the supervisor, as lab up does: its agents stand for the leases.
        lab = RunningLab.up(set, state);
        UpLab up = UpLab.of(Path.of(lab.set().name() + ".yaml"), lab.set(), lab.stateFile(), "test");
        SupervisorFiles files = up.supervisorFiles();
        SupervisorStatusWait.until(files, s -> s.nodes().get(ACTIVE).leading() && !s.nodes().get(STANDBY).leading(), "gw-1 leads");
        assertThat(LabLeases.holders(files.directory(), lab.set())).containsEntry("cluster1", "gw-1");

        // While gw-1 is down, what cluster2's DNS server leaves out, once gw-2 holds the lease.
        String hash = lab.layout().names().hash();
        List<List<String>> leftOutWhileTakenOver = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread watcher = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                boolean down = lab.stateFile().read(hash).map(s -> s.failure(ACTIVE).isPresent()).orElse(false);
                files.readStatus().filter(s -> down && s.nodes().get(STANDBY).leading())
                        .ifPresent(s -> leftOutWhileTakenOver.add(s.dns().get("cluster2").clustersDown()));
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        FailoverReport report;
        try {
            report = new LabFailover(ProcessCommandRunner.here(), new SimulatorFailover()).run(up,
                    new LabFailover.Options(ACTIVE, FailureMode.CRASH, 8, 200, 1, Optional.of(Duration.ofSeconds(6))), line -> { });
        } finally {
            watcher.interrupt();
            watcher.join();
        }
        // The DNS servers follow the lease too: cluster1's services are answered again through gw-2.
        assertThat(leftOutWhileTakenOver).as("cluster2's DNS status while gw-1 is down and gw-2 leads").isNotEmpty().last()
                .isEqualTo(List.of());

        assertThat(LabLeases.holders(files.directory(), lab.set())).as("the lease changed hands and stays").containsEntry("cluster1", "gw-2");
        assertThat(files.readStatus().orElseThrow().nodes().get(STANDBY).leading()).isTrue();
        assertThat(report.streams()).hasSize(8).allSatisfy(s -> {
            assertThat(s.before()).contains(ACTIVE).doesNotContain(STANDBY);
            assertThat(s.during()).contains(STANDBY).doesNotContain(ACTIVE);
            assertThat(s.after()).as("healed, gw-1 is the standby: nothing moves back").contains(STANDBY).doesNotContain(ACTIVE);
            assertThat(s.lostOnFailure()).isPositive();
            assertThat(s.lostOnHeal()).isZero();
            // The streams were lost from the crash until the standby's agent programmed the takeover.
            assertThat(s.failureWindowMillis()).isGreaterThanOrEqualTo(LeaseTimings.LAB.fastestTakeover().toMillis())
                    .isLessThan(LeaseTimings.LAB.slowestTakeover().toMillis() + 2_000);
        });
        assertThat(report.prediction().differences()).isEmpty();
        assertThat(report.prediction().gatewaysAfter()).contains(STANDBY).doesNotContain(ACTIVE);
        assertThat(lab.stateFile().read(lab.layout().names().hash()).orElseThrow().failures()).isEmpty();
        assertThat(new String(Files.readAllBytes(files.log()))).contains("gateway lease changed hands: cluster1 -> gw-2");

        // lab probe plans with the holder too: real packets take gw-2, as the simulation of the lab now says.
        SupervisorStatusWait.until(files, SupervisorStatusWait.everyRunningAgentProgrammed("cluster1", "gw-2"), "every agent programmed gw-2's lease");
        io.periscope.lab.probe.ProbeReport probed = lab.probe(Optional.of("client-to-nginx"), SimulatorFlows::new);
        assertThat(probed.matchesSimulation()).as(probed.flows().toString()).isTrue();
        assertThat(probed.flows().getFirst().attempts()).isNotEmpty().allSatisfy(a -> assertThat(a.outcome().disposition()).isEqualTo("delivered"));
    }

    private static boolean onPath(String program) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin").split(":"))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, program))) || Files.isExecutable(Path.of("/usr/sbin", program));
    }
}
