package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's kube-proxy handler (createPFilterChains, v0.19.0-rc3) hooks SUBMARINER-INPUT for UDP
 * and lets in vx-submariner's port only; it opens no cable port and keeps no tunnel out of
 * conntrack. A gateway running vxlan and WireGuard side by side (4500 and 4501) is where Periscope
 * used to differ, so it is the example checked.
 */
class HostFirewallIsUpstreams {

    private final ClusterSetPlan plan = PlannedExamples.plan("on-premise-vxlan-cloud-wireguard.yaml");

    @Test
    void inputJumpsToSubmarinersChainForUdpAndTheChainOpensVxSubmarinerOnly() {
        for (DataplanePlan host : List.of(submariner(plan, "onprem1", "onprem1-gw"), submariner(plan, "cloud", "cloud-gw"))) {
            assertThat(rules(host, Table.FILTER, "INPUT")).containsExactly("-p udp -m udp -j SUBMARINER-INPUT");
            assertThat(rules(host, Table.FILTER, "SUBMARINER-INPUT")).containsExactly("-p udp -m udp --dport 4800 -j ACCEPT");
        }
    }

    /** Upstream's OVN handler makes no SUBMARINER-INPUT (initIPtablesChains); only the kube-proxy handler does. */
    @Test
    void ovnKubernetesNodesHaveNeitherTheChainNorItsJump() {
        for (String example : List.of("globalnet-ovn.yaml")) {
            ClusterSetPlan ovn = PlannedExamples.plan(example);
            for (String[] node : new String[][] {{"east", "east-gw"}, {"east", "east-worker"}, {"west", "west-gw"}, {"west", "west-worker"}}) {
                DataplanePlan host = submariner(ovn, node[0], node[1]);
                assertThat(rules(host, Table.FILTER, "INPUT")).as("INPUT of %s", node[1]).isEmpty();
                assertThat(host.table(Table.FILTER).flatMap(t -> t.chain("SUBMARINER-INPUT"))).as("SUBMARINER-INPUT of %s", node[1]).isEmpty();
            }
        }
    }

    @Test
    void noNodeKeepsTunnelPacketsOutOfConntrack() {
        plan.hosts().values().forEach(host -> assertThat(host.submariner().table(Table.RAW)).as("raw table of %s", host.id()).isEmpty());
    }
}
