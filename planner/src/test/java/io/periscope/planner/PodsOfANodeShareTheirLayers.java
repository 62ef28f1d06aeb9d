package io.periscope.planner;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pods of one node have the same default route and sysctls: the plan holds their environment once
 * for all of them (a large cluster set's pods are most of its hosts), while pods of another node,
 * whose gateway differs, keep their own. Each pod still reads its own host id, node and interfaces.
 */
class PodsOfANodeShareTheirLayers {

    private static final String FILE = """
            name: shared
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                  - {name: worker, ip: 172.20.1.3, cniIP: 10.1.128.1}
                pods:
                  - {name: a, node: worker, ip: 10.1.128.10}
                  - {name: b, node: worker, ip: 10.1.128.11}
                  - {name: c, node: gw, ip: 10.1.0.10}
              - name: west
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}
            """;

    private static HostPlan pod(ClusterSetPlan plan, String name) {
        return plan.host(HostId.pod("east", "default", name)).orElseThrow();
    }

    @Test
    void podsOfOneNodeHoldOneEnvironment() throws Exception {
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(FILE, "shared.yaml"));

        HostPlan a = pod(plan, "a");
        HostPlan b = pod(plan, "b");
        assertThat(b.environment()).isSameAs(a.environment());
        assertThat(b.submariner()).isSameAs(a.submariner());
        assertThat(a.environment().routes()).isNotEmpty();
        assertThat(a.id().name()).isEqualTo("a");
        assertThat(b.id().name()).isEqualTo("b");
        assertThat(b.node()).contains("worker");
        assertThat(a.interfaces()).isNotEqualTo(b.interfaces());
    }

    @Test
    void podsOfAnotherNodeKeepTheirOwnDefaultRoute() throws Exception {
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(FILE, "shared.yaml"));

        assertThat(pod(plan, "c").environment()).isNotEqualTo(pod(plan, "a").environment());
        assertThat(pod(plan, "c").node()).contains("gw");
    }

    @Test
    void theSamePodInClustersWithOverlappingCidrsSharesItsVethParts() {
        ClusterSetPlan plan = Planner.plan(new SyntheticClusterSet(2, 2, 1, 4, 2, 0, GlobalnetMode.V2).build());
        HostPlan first = plan.host(HostId.pod("c0", "ns-0", "pod-0")).orElseThrow();
        HostPlan second = plan.host(HostId.pod("c1", "ns-0", "pod-0")).orElseThrow();
        Interface podSide = first.interfaces().getFirst();
        Interface otherPodSide = second.interfaces().getFirst();

        assertThat(otherPodSide.mac()).isSameAs(podSide.mac());
        assertThat(otherPodSide.addresses()).isSameAs(podSide.addresses());
        // Each keeps its own segment, named after its cluster.
        assertThat(otherPodSide.segment()).isNotEqualTo(podSide.segment());
        Route toPod = nodeRouteTo(plan, "c0", podSide.addresses().getFirst());
        assertThat(nodeRouteTo(plan, "c1", podSide.addresses().getFirst())).isSameAs(toPod);
    }

    private static Route nodeRouteTo(ClusterSetPlan plan, String cluster, Ipv4Address pod) {
        return plan.host(HostId.node(cluster, "node-0")).orElseThrow().environment().routes().stream()
                .filter(r -> r.destination().equals(Ipv4Prefix.host(pod))).findFirst().orElseThrow();
    }
}
