package io.periscope.lab.ovn;

import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 003's logical routers, proven by real OVN: each OVN-Kubernetes cluster of a topology gets a
 * private OVN (northbound and southbound ovsdb-server, ovn-northd), programmed from the plan by the
 * agent's {@code NorthboundProgrammer}; for each flow the simulator traces, every run of logical
 * routers on its paths is traced again by {@code ovn-trace} from the same packet, and each router
 * must make the same decision on both sides: in and out port, next hop, policy or routing table,
 * load balancer backends.
 */
class RealOvnRoutesLikeTheSimulator {

    private static ClusterSetPlan globalnetPlan;
    private static ClusterSetPlan vanillaPlan;
    private static RealOvnClusters globalnet;
    private static RealOvnClusters vanilla;

    @BeforeAll
    static void startOvn(@TempDir Path directory) throws Exception {
        Optional<String> unavailable = OvnSandbox.unavailable();
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> OvnTestTopologies.SKIP + unavailable.orElse(""));
        globalnetPlan = Planner.plan(TopologyLoader.parse(OvnTestTopologies.GLOBALNET, "globalnet-ovn.yaml"));
        vanillaPlan = Planner.plan(TopologyLoader.parse(OvnTestTopologies.VANILLA, "vanilla-ovn.yaml"));
        globalnet = new RealOvnClusters(globalnetPlan, directory.resolve("globalnet"));
        vanilla = new RealOvnClusters(vanillaPlan, directory.resolve("vanilla"));
    }

    @AfterAll
    static void stopOvn() {
        if (globalnet != null) {
            globalnet.close();
        }
        if (vanilla != null) {
            vanilla.close();
        }
    }

    private static FlowTrace trace(ClusterSetPlan plan, String from, String to) throws Exception {
        Flow flow = new Flow(from + " -> " + to, FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget(to), Protocol.TCP, Optional.empty());
        FlowTrace trace = new Simulator(plan).trace(flow);
        assertThat(trace.paths()).as(TraceText.render(trace)).isNotEmpty()
                .allSatisfy(p -> assertThat(p.disposition()).as(TraceText.render(trace)).isEqualTo(Disposition.DELIVERED));
        return trace;
    }

    /** Compares, and returns the comparisons for further checks; fails with both sides and the ovn-trace text when they disagree. */
    private static List<RealOvnClusters.Comparison> agree(RealOvnClusters ovn, FlowTrace trace, int runs) {
        List<RealOvnClusters.Comparison> comparisons = ovn.compare(trace);
        assertThat(comparisons).as("runs of logical routers on the paths of\n" + TraceText.render(trace)).hasSize(runs);
        for (RealOvnClusters.Comparison c : comparisons) {
            assertThat(c.agrees()).as("real OVN disagrees with the simulator\n" + c + "\novn-trace:\n" + c.trace()).isTrue();
        }
        return comparisons;
    }

    private static List<String> decisions(List<RealOvnClusters.Comparison> comparisons) {
        return comparisons.stream().flatMap(c -> c.ovn().stream()).map(RealOvnClusters.Decision::toString).toList();
    }

    @Test
    void aPodsConnectionToARemoteGlobalIpIsReroutedToSubmarinerRouterLoadBalancedThereAndRepliedThroughIt() throws Exception {
        FlowTrace trace = trace(globalnetPlan, "east/default/web", "nginx.default.svc.clusterset.local:8080");
        List<RealOvnClusters.Comparison> comparisons = agree(globalnet, trace, 4);
        assertThat(decisions(comparisons)).containsExactly(
                // east, forward: the reroute policy for west's global CIDR, then up to the gateway's ovn-k8s-sub0
                "ovn_cluster_router in rtos-east-worker out ovn_cluster_subm_lrp nexthop 169.254.254.1 (policy)",
                "submariner_router in submariner_j_lrp out submariner_up_lrp nexthop 169.254.254.10 (routing)",
                // west, forward: clusterLBGroup on submariner_router, then down to the pod's node
                "submariner_router in submariner_up_lrp out submariner_j_lrp nexthop 169.254.254.2 (routing) load-balanced to 10.244.1.10:8080",
                "ovn_cluster_router in ovn_cluster_subm_lrp out rtos-west-worker nexthop ip4.dst (routing)",
                // west, reply: rerouted toward east's global CIDR
                "ovn_cluster_router in rtos-west-worker out ovn_cluster_subm_lrp nexthop 169.254.254.1 (policy)",
                "submariner_router in submariner_j_lrp out submariner_up_lrp nexthop 169.254.254.10 (routing)",
                // east, reply toward the local pod through submariner_router
                "submariner_router in submariner_up_lrp out submariner_j_lrp nexthop 169.254.254.2 (routing)",
                "ovn_cluster_router in ovn_cluster_subm_lrp out rtos-east-worker nexthop ip4.dst (routing)");
    }

    @Test
    void withoutGlobalnetAPodsConnectionToARemotePodCidrIsReroutedAndDeliveredThroughBothSubmarinerRouters() throws Exception {
        FlowTrace trace = trace(vanillaPlan, "east/default/web", "west/default/nginx-1:8080");
        List<RealOvnClusters.Comparison> comparisons = agree(vanilla, trace, 4);
        assertThat(decisions(comparisons)).containsExactly(
                "ovn_cluster_router in rtos-east-worker out ovn_cluster_subm_lrp nexthop 169.254.254.1 (policy)",
                "submariner_router in submariner_j_lrp out submariner_up_lrp nexthop 169.254.254.10 (routing)",
                "submariner_router in submariner_up_lrp out submariner_j_lrp nexthop 169.254.254.2 (routing)",
                "ovn_cluster_router in ovn_cluster_subm_lrp out rtos-west-worker nexthop ip4.dst (routing)",
                "ovn_cluster_router in rtos-west-worker out ovn_cluster_subm_lrp nexthop 169.254.254.1 (policy)",
                "submariner_router in submariner_j_lrp out submariner_up_lrp nexthop 169.254.254.10 (routing)",
                "submariner_router in submariner_up_lrp out submariner_j_lrp nexthop 169.254.254.2 (routing)",
                "ovn_cluster_router in ovn_cluster_subm_lrp out rtos-east-worker nexthop ip4.dst (routing)");
    }

    @Test
    void withoutGlobalnetARemoteServiceIsLoadBalancedBySubmarinerRoutersClusterLbGroup() throws Exception {
        FlowTrace trace = trace(vanillaPlan, "east/default/web", "nginx.default.svc.clusterset.local:8080");
        List<RealOvnClusters.Comparison> comparisons = agree(vanilla, trace, 4);
        assertThat(decisions(comparisons)).contains(
                "submariner_router in submariner_up_lrp out submariner_j_lrp nexthop 169.254.254.2 (routing) load-balanced to 10.20.1.10:8080");
    }

    @Test
    void aLocalServiceVipIsLoadBalancedByTheNodeSwitchsClusterLbGroupBeforeOvnClusterRouter() throws Exception {
        FlowTrace trace = trace(globalnetPlan, "west/default/client", "10.96.0.50:8080");
        List<RealOvnClusters.Comparison> comparisons = agree(globalnet, trace, 2);
        assertThat(decisions(comparisons)).containsExactly(
                "ovn_cluster_router in rtos-west-gw out rtos-west-worker nexthop ip4.dst (routing) load-balanced to 10.244.1.10:8080",
                "ovn_cluster_router in rtos-west-worker out rtos-west-gw nexthop ip4.dst (routing)");
    }

    @Test
    void aHostNetworkPodEntersOvnByItsNodesManagementPortAndIsRerouted() throws Exception {
        FlowTrace trace = trace(globalnetPlan, "east/kube-system/node-agent", "nginx.default.svc.clusterset.local:8080");
        List<RealOvnClusters.Comparison> comparisons = agree(globalnet, trace, 4);
        assertThat(decisions(comparisons).getFirst()).isEqualTo(
                "ovn_cluster_router in rtos-east-worker out ovn_cluster_subm_lrp nexthop 169.254.254.1 (policy)");
    }
}
