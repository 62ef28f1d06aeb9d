package io.periscope.lab.lease;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailure;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.ovn.OvnPrograms;
import io.periscope.lab.ovn.PlannedOvnCluster;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;
import io.periscope.lab.trace.TraceHop;
import io.periscope.labsimulator.SimulatorFlows;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's design on real OVN ({@code behaviour: upstream}): no {@code submariner_router}; Submariner's
 * reroute policy and its static route marked {@code external_ids:submariner} on {@code ovn_cluster_router}
 * send remote traffic to the active gateway's {@code ovn-k8s-mp0}. {@code lab fail} of east-gw gives east-gw2
 * the lease; the supervisor's syncer (standing for upstream's gateway route controller) moves both rows to
 * east-gw2's management port, the agents move tables 149/150 and the cable, and a pod's real packets to
 * the remote cluster leave through east-gw2, hop for hop as the simulation of the lab as it is now.
 * Root and Open vSwitch / OVN; run under {@code flock /tmp/periscope-lab.lock}.
 */
class FailedUpstreamOvnGatewayReroutesToTheNextGatewaysManagementPort {

    static final String FIRST = "east/east-gw";
    static final String SECOND = "east/east-gw2";
    static final String FLOW = "ovn-pod-to-kube-proxy-service";

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @BeforeEach
    void ovnIsInstalled() {
        Assumptions.assumeTrue(OvnPrograms.datapathUnavailable().isEmpty(), () -> OvnPrograms.datapathUnavailable().orElse(""));
    }

    @Test
    void theRerouteTheMarkedRouteAndThePacketsFollowTheLeaseToTheStandbysManagementPort() throws Exception {
        RunningLab lab = labs.up(RunningLab.forTest(LeaseTopologies.ovnSingleActiveUpstream(), "ovnupstream"));
        UpLab up = UpLab.of(Path.of(lab.set().name() + ".yaml"), lab.set(), lab.stateFile(), "test");
        SupervisorFiles files = up.supervisorFiles();
        String northbound = PlannedOvnCluster.northbound(files.directory(), "east");

        SupervisorStatusWait.until(files, s -> s.nodes().get(FIRST).leading() && synced(s)
                && SupervisorStatusWait.everyRunningAgentProgrammed("east", "east-gw").test(s), "east-gw leads and every agent programmed it");
        assertThat(run("ovn-nbctl", "--db=" + northbound, "--bare", "--columns=name", "find", "Logical_Router", "name=submariner_router"))
                .as("upstream's design has no submariner_router").isEmpty();
        assertReroutedTo(northbound, "10.244.0.1");
        assertCrosses(lab, FIRST);

        new LabFailure(ProcessCommandRunner.here()).fail(up, FIRST, FailureMode.CRASH, line -> { });
        SupervisorStatusWait.until(files, s -> s.nodes().get(SECOND).leading() && synced(s)
                && SupervisorStatusWait.everyRunningAgentProgrammed("east", "east-gw2").test(s), "east-gw2 takes the lease and every agent programs it");

        assertReroutedTo(northbound, "10.244.2.1");
        assertThat(Files.readString(files.log())).contains("gateway lease changed hands: east -> east-gw2")
                .contains("east: network plugin syncer: ").contains("ovn_cluster_router reroutes to 10.244.2.1");
        assertCrosses(lab, SECOND);
    }

    /** Submariner's rows on ovn_cluster_router, read back from the running database: policy and marked route to {@code managementPort}. */
    private static void assertReroutedTo(String northbound, String managementPort) {
        String policies = run("ovn-nbctl", "--db=" + northbound, "lr-policy-list", "ovn_cluster_router");
        assertThat(policies.lines().filter(l -> l.strip().startsWith("20000")).toList()).as(policies)
                .isNotEmpty().allSatisfy(l -> assertThat(l).contains("reroute").endsWith(managementPort));
        String marked = run("ovn-nbctl", "--db=" + northbound, "--bare", "--columns=nexthop", "find", "Logical_Router_Static_Route",
                "external_ids:submariner=periscope");
        assertThat(marked.lines().filter(l -> !l.isBlank()).toList()).as("the static routes Submariner marked").isNotEmpty()
                .allSatisfy(hop -> assertThat(hop.strip()).isEqualTo(managementPort));
    }

    /** {@code lab probe} of the flow: real packets where the simulation of the lab as it is now puts them, out of {@code gateway}. */
    private static void assertCrosses(RunningLab lab, String gateway) {
        ProbeReport report = lab.probe(Optional.of(FLOW), SimulatorFlows::new);
        FlowProbeResult flow = report.flows().getFirst();
        assertThat(flow.matchesSimulation()).as(() -> flow.name() + ": " + flow.problem() + " " + flow.firstDifference()).isTrue();
        assertThat(flow.attempts()).isNotEmpty().allSatisfy(a -> {
            assertThat(a.outcome().disposition()).isEqualTo("delivered");
            assertThat(a.observed().forward()).extracting(TraceHop::position)
                    .anySatisfy(position -> assertThat(position).startsWith(gateway + " in ovn-k8s-mp0"));
        });
    }

    private static boolean synced(SupervisorStatus status) {
        SupervisorStatus.NorthboundStatus syncer = status.northbound().get("east");
        return syncer != null && syncer.lastError().isEmpty() && syncer.passes() > 0;
    }

    private static String run(String... argv) {
        return ProcessCommandRunner.here().run(Command.of(argv)).stdout().strip();
    }
}
