package io.periscope.lab.probe;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.ovn.OvnPrograms;
import io.periscope.lab.trace.TraceHop;
import io.periscope.labsimulator.SimulatorFlows;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab probe} of {@code examples/globalnet-mixed-ovn.yaml}: one cluster on real OVN (seed 003's
 * datapath), one on a kube-proxy CNI (seed 002's), Globalnet on, the same pod and service CIDRs in
 * both. Each way across, real packets take the simulator's hops, OVN's logical routers included;
 * and a second probe of the same flows matches as the first did (the probe empties OVS's userspace
 * conntrack as it empties the kernels', so an earlier probe's connections with the same ports do not
 * meet the new packets). Root and Open vSwitch / OVN; run under {@code flock /tmp/periscope-lab.lock}.
 */
class AMixedClusterSetOfOvnAndKubeProxyMatchesTheSimulator {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @BeforeEach
    void ovnIsInstalled() {
        Assumptions.assumeTrue(OvnPrograms.datapathUnavailable().isEmpty(), () -> OvnPrograms.datapathUnavailable().orElse(""));
    }

    @Test
    void bothWaysMatchTheSimulationHopForHopAndAgainOnASecondProbe() {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load(Examples.GLOBALNET_MIXED_OVN), "mixedovn"));

        for (int probe = 1; probe <= 2; probe++) {
            ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);
            int round = probe;
            assertThat(report.flows()).hasSize(2).allSatisfy(flow -> assertThat(flow.matchesSimulation())
                    .as("probe %d, %s: %s %s", round, flow.name(), flow.problem(), flow.firstDifference()).isTrue());
        }
        FlowProbeResult fromOvn = lab.probe(Optional.of("ovn-pod-to-kube-proxy-service"), SimulatorFlows::new).flows().getFirst();
        assertThat(fromOvn.attempts().getFirst().observed().forward()).extracting(TraceHop::position).containsExactly(
                "east/default/web out eth0",
                "east/ovn_cluster_router in rtos-east-worker out ovn_cluster_subm_lrp",
                "east/submariner_router in submariner_j_lrp out submariner_up_lrp",
                "east/east-gw in ovn-k8s-sub0 out vxlan-tunnel",
                "west/west-gw in vxlan-tunnel out eth0",
                "west/west-worker in eth0 out p-nginx-1",
                "west/default/nginx-1 in eth0");
    }
}
