package io.periscope.planner;

import io.periscope.model.load.TopologyLoader;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node side of a pod's veth is {@code p-} and the pod's name, cut to 15 characters; a name
 * already taken on the node gets {@code -1}, {@code -2}, ... The first choice of each pod name is
 * made once for the whole set: another cluster with the same pod names, and another node of the
 * same cluster, still give each name to one veth per node only.
 */
class VethNamesAreUniqueOnTheirNode {

    private static final String FILE = """
            name: veths
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                  - {name: worker, ip: 172.20.1.3, cniIP: 10.1.128.1}
                pods:
                  - {name: web, namespace: a, node: worker, ip: 10.1.128.10}
                  - {name: web, namespace: b, node: worker, ip: 10.1.128.11}
                  - {name: web, namespace: c, node: worker, ip: 10.1.128.12}
                  - {name: web, namespace: d, node: gw, ip: 10.1.0.10}
                  - {name: a-very-long-pod-name, namespace: a, node: worker, ip: 10.1.128.13}
                  - {name: a-very-long-pod-name, namespace: b, node: worker, ip: 10.1.128.14}
              - name: west
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}
                  - {name: worker, ip: 172.20.2.3, cniIP: 10.2.128.1}
                pods:
                  - {name: web, namespace: b, node: worker, ip: 10.2.128.11}
                  - {name: web, namespace: a, node: worker, ip: 10.2.128.10}
            """;

    private static List<String> veths(ClusterSetPlan plan, String cluster, String node) {
        return plan.host(HostId.node(cluster, node)).orElseThrow().interfaces().stream().map(Interface::name)
                .filter(name -> name.startsWith("p-")).toList();
    }

    @Test
    void aTakenNameGetsTheNextSuffixOnItsNodeOnly() throws Exception {
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(FILE, "veths.yaml"));

        assertThat(veths(plan, "east", "worker")).containsExactly("p-web", "p-web-1", "p-web-2", "p-a-very-long-p", "p-a-very-long-1");
        assertThat(veths(plan, "east", "gw")).containsExactly("p-web");
        assertThat(veths(plan, "west", "worker")).containsExactly("p-web", "p-web-1");
    }
}
