package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.CniMasquerade;
import io.periscope.model.topology.NodeEnvironment;
import io.periscope.model.topology.RpFilter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differential test for what a node brings before Submariner: the multi-active-gateway examples
 * (TCP replies land on either gateway, so some SYN-ACKs reach a gateway that never saw the SYN) with
 * every cluster's nodes set to strict or loose reverse-path filtering and a CNI that masquerades
 * pod traffic. Real packets in the lab must take only paths the simulator shows, hop by hop and
 * field by field, and end as it says (delivered or not).
 */
class NodeEnvironmentsAgreeWithTheSimulator {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    static ClusterSet withEnvironment(ClusterSet set, NodeEnvironment environment) {
        List<Cluster> clusters = new ArrayList<>();
        for (Cluster c : set.clusters()) {
            clusters.add(new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), c.exports(), c.globalEgressIPs(),
                    environment, c.egressOwnership()));
        }
        return set.withClusters(clusters);
    }

    /**
     * With strict filtering the reply reaches the client's node on eth0 while that node routes the
     * remote CIDR by vx-submariner: the kernel drops it, as the simulator says; loose lets it in.
     */
    @ParameterizedTest(name = "{0} with rp_filter {1}, CNI masquerade {2}: {3}")
    @CsvSource({"mag-vanilla.yaml, STRICT, OUTSIDE_POD_CIDRS, dropped", "mag-globalnet.yaml, STRICT, OUTSIDE_POD_CIDRS, dropped",
            "mag-vanilla.yaml, LOOSE, OUTSIDE_POD_CIDRS, delivered", "mag-globalnet.yaml, LOOSE, OUTSIDE_POD_CIDRS, delivered"})
    void realPacketsEndAsTheSimulatorSays(String example, RpFilter rpFilter, CniMasquerade masquerade, String disposition) {
        ClusterSet set = withEnvironment(Examples.load(example), new NodeEnvironment(rpFilter, masquerade));
        RunningLab lab = labs.up(RunningLab.forTest(set, "env-" + example.replace(".yaml", "") + "-" + rpFilter.yamlName()));

        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        List<String> disagreements = new ArrayList<>();
        for (FlowProbeResult flow : report.flows()) {
            assertThat(flow.problem()).as(flow.name()).isEmpty();
            assertThat(flow.attempts()).as(flow.name()).isNotEmpty()
                    .allSatisfy(a -> assertThat(a.outcome().disposition()).as("%s from port %d", flow.name(), a.outcome().sourcePort())
                            .isEqualTo(disposition));
            if (!flow.matchesSimulation()) {
                disagreements.add(flow.name() + ": " + flow.firstDifference().map(d -> d.describe()).orElse("no connection matched"));
            }
        }
        assertThat(disagreements).as("flows where real packets and the simulator disagree").isEmpty();
    }
}
