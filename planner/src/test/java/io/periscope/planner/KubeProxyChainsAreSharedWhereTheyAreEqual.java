package io.periscope.planner;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.HookPosition;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clusters with the same services, endpoints and CIDRs (the generated sets, and many sets behind
 * Globalnet) hold one record of each kube-proxy chain they have in common: the plan of 105,000
 * hosts would otherwise hold a copy per cluster. What differs between them (KUBE-SERVICES, which
 * names each cluster's own global IPs) stays each cluster's own.
 */
class KubeProxyChainsAreSharedWhereTheyAreEqual {

    private static List<Chain> natChains(ClusterSetPlan plan, String cluster) {
        DataplanePlan kubeProxy = plan.hosts().get(HostId.node(cluster, "node-1")).kubeProxy();
        return kubeProxy.table(Table.NAT).orElseThrow().chains();
    }

    @Test
    void equalClustersHoldTheSameEndpointChainRecords() {
        ClusterSetPlan plan = Planner.plan(new SyntheticClusterSet(2, 3, 1, 6, 2, 0, GlobalnetMode.V2).build());
        List<Chain> first = natChains(plan, "c0");
        List<Chain> second = natChains(plan, "c1");

        assertThat(second.stream().map(Chain::name)).containsExactlyElementsOf(first.stream().map(Chain::name).toList());
        // Service s of ns-s selects the pods of ns-s: one endpoint each, under the service and its internal service.
        assertThat(first.stream().filter(c -> c.name().startsWith("KUBE-SEP-"))).hasSize(4);
        for (Chain chain : first) {
            if (chain.name().startsWith("KUBE-SVC-") || chain.name().startsWith("KUBE-SEP-") || chain.name().startsWith("KUBE-EXT-")) {
                assertThat(chain(second, chain.name())).isSameAs(chain);
            }
        }
        assertThat(chain(second, "KUBE-SERVICES")).isNotEqualTo(chain(first, "KUBE-SERVICES"));
    }

    @Test
    void aSharedChainThatGetsARuleHereBecomesACopyOfItsOwn() {
        Chain shared = new Chain("KUBE-SEP-X", List.of(Rule.of(new Target.Masquerade())));
        PlanBuilder builder = new PlanBuilder();
        builder.chain(Table.NAT, shared);
        builder.rule(Table.NAT, "KUBE-SEP-X", Rule.of(new Target.Return()));
        PlanBuilder untouched = new PlanBuilder().chain(Table.NAT, shared);

        assertThat(builder.build().table(Table.NAT).orElseThrow().chains())
                .containsExactly(new Chain("KUBE-SEP-X", List.of(Rule.of(new Target.Masquerade()), Rule.of(new Target.Return()))));
        assertThat(shared.rules()).containsExactly(Rule.of(new Target.Masquerade()));
        assertThat(untouched.build().table(Table.NAT).orElseThrow().chains().getFirst()).isSameAs(shared);
    }

    @Test
    void aSharedChainNamedAgainAppendsItsRules() {
        PlanBuilder builder = new PlanBuilder();
        builder.rule(Table.NAT, "KUBE-SVC-X", new Rule(List.of(), new Target.Return(), Optional.of("first")));
        builder.chain(Table.NAT, new Chain("KUBE-SVC-X", List.of(Rule.of(new Target.Masquerade()))));

        assertThat(builder.build().table(Table.NAT).orElseThrow().chains()).containsExactly(new Chain("KUBE-SVC-X",
                List.of(new Rule(List.of(), new Target.Return(), Optional.of("first")), Rule.of(new Target.Masquerade()))));
    }

    @Test
    void aSharedBuiltInChainKeepsItsRulesBeforeRulesPlacedLast() {
        PlanBuilder builder = new PlanBuilder();
        builder.chain(Table.NAT, new Chain("POSTROUTING", List.of(Rule.of(new Target.Masquerade()))));
        builder.rule(Table.NAT, "POSTROUTING", HookPosition.LAST, Rule.of(new Target.Return()));

        assertThat(builder.build().table(Table.NAT).orElseThrow().chains()).containsExactly(new Chain("POSTROUTING",
                List.of(Rule.of(new Target.Masquerade())), List.of(Rule.of(new Target.Return()))));
    }

    private static Chain chain(List<Chain> chains, String name) {
        return chains.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}
