package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.HookPosition;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's kube-proxy handler (createPFilterChains, v0.19.0-rc3) hooks {@code SUBMARINER-INPUT}
 * with {@code ChainPriorityLast}, which its iptables packet filter carries out with
 * {@code AppendUnique}; every other hook of the route agent, Globalnet and the OVN handler is
 * {@code ChainPriorityFirst} ({@code InsertUnique} at 1). The plan places each jump the same way.
 */
class TheInputJumpGoesLastAsUpstreamAppendsIt {

    private static final String INPUT_JUMP = "-p udp -m udp -j SUBMARINER-INPUT";

    private static List<String> text(List<Rule> rules) {
        return rules.stream().map(IptablesSyntax::rule).toList();
    }

    private static Chain filterInput(DataplanePlan plan) {
        return plan.table(Table.FILTER).flatMap(t -> t.chain("INPUT")).orElseThrow();
    }

    @Test
    void everyNodePlacesTheInputJumpLastAndNothingFirstInInput() {
        for (String example : List.of("on-premise-vxlan-cloud-wireguard.yaml", "mag-globalnet.yaml", "globalnet-ovn.yaml")) {
            ClusterSetPlan plan = PlannedExamples.plan(example);
            for (HostPlan host : plan.hosts().values()) {
                if (!isNode(host)) {
                    continue;
                }
                Chain input = filterInput(host.submariner());
                assertThat(text(input.rules(HookPosition.LAST))).as("%s in %s", host.id(), example).containsExactly(INPUT_JUMP);
                assertThat(input.rules(HookPosition.FIRST)).as("%s in %s", host.id(), example).isEmpty();
            }
        }
    }

    /** Hosts that run the agents (not the WAN's routers, which have no plan of Submariner's). */
    private static boolean isNode(HostPlan host) {
        return host.submariner().table(Table.FILTER).flatMap(t -> t.chain("INPUT")).isPresent();
    }

    @Test
    void everyOtherJumpOfABuiltinChainGoesFirst() {
        for (String example : List.of("on-premise-vxlan-cloud-wireguard.yaml", "mag-globalnet.yaml", "globalnet-ovn.yaml")) {
            for (HostPlan host : PlannedExamples.plan(example).hosts().values()) {
                for (NetfilterTable table : host.submariner().netfilter()) {
                    for (Chain chain : table.chains()) {
                        if (table.table() == Table.FILTER && chain.name().equals("INPUT")) {
                            continue;
                        }
                        assertThat(chain.last()).as("%s %s %s in %s", host.id(), table.table().iptablesName(), chain.name(), example)
                                .isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void onTheNodeTheJumpComesAfterTheRulesTheNodeAlreadyHad() {
        HostPlan host = PlannedExamples.plan("on-premise-vxlan-cloud-wireguard.yaml").hosts().values().stream()
                .filter(TheInputJumpGoesLastAsUpstreamAppendsIt::isNode).findFirst().orElseThrow();
        Rule nodesOwn = Rule.of(Target.accept(), new Match.InInterface("lo"));
        DataplanePlan node = new DataplanePlan(List.of(new NetfilterTable(Table.FILTER, List.of(new Chain("INPUT", List.of(nodesOwn))))),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of(), List.of(), List.of());

        Chain merged = filterInput(node.merge(host.submariner()));

        assertThat(text(merged.inOrder())).containsExactly("-i lo -j ACCEPT", INPUT_JUMP);
    }
}
