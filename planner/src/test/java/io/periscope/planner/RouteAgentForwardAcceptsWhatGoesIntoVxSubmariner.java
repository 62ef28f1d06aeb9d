package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/** Upstream's kube-proxy handler prepends {@code -o vx-submariner -j ACCEPT} to SUBMARINER-FORWARD on every node. */
class RouteAgentForwardAcceptsWhatGoesIntoVxSubmariner {

    @Test
    void everyNodeOfAKubeProxyClusterAcceptsFirstWhatLeavesByVxSubmariner() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-globalnet.yaml");
        assertThat(rules(submariner(plan, "cluster1", "worker-1"), Table.FILTER, "SUBMARINER-FORWARD"))
                .containsExactly("-o vx-submariner -j ACCEPT");
        // On a gateway it stays first, above the cable's rules.
        assertThat(rules(submariner(plan, "cluster1", "gw-1"), Table.FILTER, "SUBMARINER-FORWARD"))
                .first().isEqualTo("-o vx-submariner -j ACCEPT");
    }

    @Test
    void ovnKubernetesClustersHaveNoVxSubmarinerAndNoSuchRule() {
        ClusterSetPlan plan = PlannedExamples.plan("globalnet-ovn.yaml");
        assertThat(rules(submariner(plan, "east", "east-worker"), Table.FILTER, "SUBMARINER-FORWARD"))
                .noneMatch(r -> r.contains("vx-submariner"));
    }
}
