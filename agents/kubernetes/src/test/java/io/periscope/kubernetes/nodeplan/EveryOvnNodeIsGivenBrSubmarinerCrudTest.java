package io.periscope.kubernetes.nodeplan;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.ovs.NodeBridge;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the route agent keeps in a node's Open vSwitch, from the live objects: on an OVN-Kubernetes
 * cluster (seed 003's design) every node, gateway or worker, gets br-submariner with ovn-k8s-sub0 at
 * 169.254.254.10/29 mapped to submariner_gateway, with the MAC the node's plan gives the port; on a
 * cluster of another CNI the agent does not look at OVS at all.
 */
class EveryOvnNodeIsGivenBrSubmarinerCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;

    @BeforeEach
    void apiServer() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private void cluster1(String cni) {
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", null, false, 8, Map.of("location", "on-premise"), cni);
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
    }

    private LiveNodePlan nodePlan(String node) {
        return LiveNodePlan.of(LiveObjectsReader.read(client, MockCluster.SUBMARINER_NAMESPACE, "cluster1"), node);
    }

    @Test
    void aWorkerAndTheGatewayOfAnOvnClusterEachGetTheBridge() {
        cluster1("ovn-kubernetes");
        for (String node : List.of("worker-1", "gw-1")) {
            LiveNodePlan plan = nodePlan(node);
            assertThat(plan.onOvnKubernetes()).isTrue();
            List<NodeBridge> bridges = plan.bridges();
            assertThat(bridges).singleElement().satisfies(b -> {
                assertThat(b.bridge()).isEqualTo("br-submariner");
                assertThat(b.internalPort()).isEqualTo("ovn-k8s-sub0");
                assertThat(b.cidr()).isEqualTo(Ipv4Address.parse("169.254.254.10") + "/29");
                assertThat(b.mapping()).isEqualTo("submariner_gateway:br-submariner");
                assertThat(b.mac()).contains(plan.host().orElseThrow().interfaces().stream().filter(i -> i.name().equals("ovn-k8s-sub0"))
                        .findFirst().orElseThrow().mac().toString());
            });
        }
    }

    @Test
    void aNodeOfAnotherCniIsNotOnOvn() {
        cluster1("calico");
        LiveNodePlan plan = nodePlan("worker-1");
        assertThat(plan.onOvnKubernetes()).isFalse();
        assertThat(plan.bridges()).isEmpty();
    }
}
