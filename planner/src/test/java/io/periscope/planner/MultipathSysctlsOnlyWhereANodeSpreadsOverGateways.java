package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fib_multipath_hash_policy} and {@code ignore_routes_with_linkdown} change how every connection of
 * a host is hashed and routed, and upstream Submariner sets neither: the agents set them only on nodes
 * whose plan spreads a destination over several nexthops (seed 004's multiple active gateways).
 */
class MultipathSysctlsOnlyWhereANodeSpreadsOverGateways {

    private static final String POLICY = "net.ipv4.fib_multipath_hash_policy";
    private static final String LINKDOWN = "net.ipv4.conf.all.ignore_routes_with_linkdown";

    private static Map<String, String> sysctls(ClusterSetPlan plan, String cluster, String node) {
        return submariner(plan, cluster, node).sysctls();
    }

    @Test
    void nodesOfClustersWithOneActiveGatewayKeepTheirOwnHashingAndLinkdownHandling() {
        ClusterSetPlan plan = PlannedExamples.plan("globalnet-egress.yaml");
        for (String[] node : new String[][] {{"east", "east-gw"}, {"east", "east-worker"}, {"west", "west-gw"}, {"west", "west-worker"}}) {
            assertThat(sysctls(plan, node[0], node[1])).as(node[0] + "/" + node[1]).doesNotContainKeys(POLICY, LINKDOWN);
        }
    }

    @Test
    void nodesThatSpreadOverSeveralActiveGatewaysHashL4AndIgnoreLinkdownRoutes() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-globalnet.yaml");
        assertThat(submariner(plan, "cluster1", "worker-1").routes()).anyMatch(io.periscope.plan.routing.Route::multipath);
        assertThat(sysctls(plan, "cluster1", "worker-1")).containsEntry(POLICY, "1").containsEntry(LINKDOWN, "1");
        assertThat(sysctls(plan, "cluster1", "gw-1")).containsEntry(POLICY, "1").containsEntry(LINKDOWN, "1");
    }
}
