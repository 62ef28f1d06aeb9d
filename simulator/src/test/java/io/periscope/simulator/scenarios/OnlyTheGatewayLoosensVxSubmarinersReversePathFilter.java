package io.periscope.simulator.scenarios;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.NodeEnvironment;
import io.periscope.model.topology.RpFilter;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream loosens {@code vx-submariner}'s reverse-path filter on the gateway only, which receives
 * every node's traffic for the remote clusters; a non-gateway node's device keeps the cluster's own
 * setting. Nothing cross-cluster comes into a non-gateway node by its {@code vx-submariner}: the
 * gateway hands remote traffic to local pods over the CNI's routes. So with reverse-path filtering
 * off (the default) connections pass as before, and a cluster that filters strictly (RHEL) drops
 * them where upstream's would, on the receiving worker's underlay interface, whose route back to the
 * remote source leaves by {@code vx-submariner}: the trace says so.
 */
class OnlyTheGatewayLoosensVxSubmarinersReversePathFilter {

    private static final String VX_RP_FILTER = "net.ipv4.conf.vx-submariner.rp_filter";

    /** Every cluster of the example filtering strictly, as RHEL does by default. */
    private static ClusterSet strict(String example) throws Exception {
        ClusterSet set = DocumentedSteps.load(example);
        List<Cluster> clusters = new ArrayList<>();
        for (Cluster c : set.clusters()) {
            clusters.add(new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), c.exports(), c.globalEgressIPs(),
                    new NodeEnvironment(RpFilter.STRICT, c.environment().cniMasquerade(), c.environment().multipathHash()),
                    c.egressOwnership()));
        }
        return set.withClusters(clusters);
    }

    private static String vxRpFilter(ClusterSetPlan plan, String cluster, String node) {
        return plan.hosts().get(HostId.node(cluster, node)).submariner().sysctls().get(VX_RP_FILTER);
    }

    @Test
    void theGatewayLoosensItAndTheWorkerLeavesItToTheCluster() throws Exception {
        ClusterSetPlan plan = Planner.plan(DocumentedSteps.load("path-mtu.yaml"));

        assertThat(vxRpFilter(plan, "cluster1", "gw-1")).isEqualTo("2");
        assertThat(vxRpFilter(plan, "cluster1", "worker-1")).isNull();
    }

    private static FlowTrace clientToServer(ClusterSetPlan plan, String cluster, String pod) throws Exception {
        return new Simulator(plan).trace(SubmarinersAcceptsKeepCrossClusterTrafficFromTheCniMasquerade.tcp("client-to-" + pod,
                "cluster1/default/client", new FlowTarget.PodTarget(cluster, "default", pod, 80)));
    }

    @Test
    void withTheFilterOffWorkersPassCrossClusterConnectionsAndTheirReplies() throws Exception {
        FlowTrace single = clientToServer(Planner.plan(DocumentedSteps.load("path-mtu.yaml")), "cluster2", "server");
        FlowTrace multi = clientToServer(Planner.plan(DocumentedSteps.load("mag-vanilla.yaml")), "cluster2", "nginx-7d4f");

        assertThat(single.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED);
            assertThat(path.reply()).extracting(h -> h.node().toString()).contains("cluster2/worker-2", "cluster1/worker-1");
        });
        assertThat(multi.paths()).hasSizeGreaterThan(1).allSatisfy(path ->
                assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED));
    }

    @Test
    void aStrictClusterDropsOnTheWorkersUnderlayNotOnItsVxSubmariner() throws Exception {
        ClusterSetPlan plan = Planner.plan(strict("path-mtu.yaml"));
        assertThat(plan.hosts().get(HostId.node("cluster2", "worker-2")).environment().sysctls())
                .containsEntry("net.ipv4.conf.all.rp_filter", "1");

        FlowTrace trace = clientToServer(plan, "cluster2", "server");

        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
            assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r)
                    .contains("rp_filter=1 (strict) on cluster2/worker-2 eth0").contains("leaves by vx-submariner, not eth0"));
        });
    }
}
