package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * kube-proxy's filter chain KUBE-FORWARD belongs to the environment every node of a kube-proxy
 * cluster has before Submariner: jumped to from FORWARD, it drops what conntrack marks INVALID
 * unless kube-proxy runs liberal ({@code kubeProxyConntrack: liberal}), then accepts marked and
 * established traffic. Submariner's agents never program it.
 */
class KubeProxyForwardDropsInvalidUnlessLiberal {

    private static ClusterSetPlan plan(String eastExtra) {
        return Planner.plan(PlannedExamples.parse("""
                name: kube-forward
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [100.1.0.0/16]
                """ + eastExtra + """
                    nodes:
                      - {name: east-gw, ip: 172.18.0.2, cniIP: 10.1.0.1, gateway: true}
                      - {name: east-worker, ip: 172.18.0.3, cniIP: 10.1.128.1}
                  - name: west
                    podCIDRs: [10.2.0.0/16]
                    serviceCIDRs: [100.2.0.0/16]
                    cni: ovn-kubernetes
                    nodes:
                      - {name: west-gw, ip: 172.18.0.4, cniIP: 10.2.0.1, gateway: true}
                """));
    }

    private static DataplanePlan kubeProxy(ClusterSetPlan plan, String cluster, String node) {
        return plan.host(HostId.node(cluster, node)).orElseThrow().kubeProxy();
    }

    @Test
    void everyNodeOfAKubeProxyClusterDropsInvalidPacketsInKubeForwardByDefault() {
        ClusterSetPlan plan = plan("");
        for (String node : List.of("east-gw", "east-worker")) {
            DataplanePlan layer = kubeProxy(plan, "east", node);
            assertThat(rules(layer, Table.FILTER, "FORWARD")).as(node).containsExactly(
                    "-m comment --comment \"kubernetes forwarding rules\" -j KUBE-FORWARD");
            assertThat(rules(layer, Table.FILTER, "KUBE-FORWARD")).as(node).containsExactly(
                    "-m conntrack --ctstate INVALID -j DROP",
                    "-m comment --comment \"kubernetes forwarding rules\" -m mark --mark 0x4000/0x4000 -j ACCEPT",
                    "-m comment --comment \"kubernetes forwarding conntrack rule\" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT");
        }
    }

    @Test
    void aLiberalKubeProxyWritesNoDrop() {
        ClusterSetPlan plan = plan("    kubeProxyConntrack: liberal\n");
        assertThat(rules(kubeProxy(plan, "east", "east-worker"), Table.FILTER, "KUBE-FORWARD")).containsExactly(
                "-m comment --comment \"kubernetes forwarding rules\" -m mark --mark 0x4000/0x4000 -j ACCEPT",
                "-m comment --comment \"kubernetes forwarding conntrack rule\" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT");
    }

    @Test
    void submarinersLayerAndOvnKubernetesHaveNoKubeForward() {
        ClusterSetPlan plan = plan("");
        assertThat(plan.host(HostId.node("east", "east-worker")).orElseThrow().submariner().table(Table.FILTER)
                .flatMap(t -> t.chain("KUBE-FORWARD"))).isEmpty();
        assertThat(plan.host(HostId.node("west", "west-gw")).orElseThrow().effective().table(Table.FILTER)
                .flatMap(t -> t.chain("KUBE-FORWARD"))).isEmpty();
    }

    @Test
    void submarinersForwardJumpComesFirstAsItsAgentsInsertIt() {
        DataplanePlan effective = plan("").host(HostId.node("east", "east-worker")).orElseThrow().effective();
        assertThat(rules(effective, Table.FILTER, "FORWARD")).containsExactly(
                "-j SUBMARINER-FORWARD",
                "-m comment --comment \"kubernetes forwarding rules\" -j KUBE-FORWARD");
    }
}
