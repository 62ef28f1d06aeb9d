package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.model.topology.Cluster;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The builder as a pure function: odd objects become problems, never exceptions; leases decide the active gateways. */
class ClusterModelBuilderLeavesOutWhatItCannotUse {

    private static SubmarinerCluster clusterObject(boolean multiActive, String podCidr) {
        SubmarinerCluster cluster = new SubmarinerCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("c1").withNamespace("submariner-operator").build());
        cluster.setSpec(new ClusterSpec("c1", null, List.of(podCidr), List.of("100.0.0.0/16"), List.of("242.0.1.0/24"), "no-such-cni",
                multiActive, null, null, null));
        return cluster;
    }

    private static io.fabric8.kubernetes.api.model.Node node(String name, String ip, boolean gateway, Map<String, String> annotations) {
        return new NodeBuilder().withNewMetadata().withName(name).withAnnotations(annotations)
                .withLabels(gateway ? Map.of(SubmarinerApi.GATEWAY_LABEL, "true") : Map.of()).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress(ip).endAddress().endStatus().build();
    }

    private static io.fabric8.kubernetes.api.model.Pod pod(String name, String node, String ip) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withNodeName(node).endSpec().withNewStatus().withPhase("Running").withPodIP(ip).endStatus().build();
    }

    private static LiveObjects live(boolean multiActive, Optional<Set<String>> leases, List<io.fabric8.kubernetes.api.model.Pod> pods,
                                    List<GlobalEgressIPResource> egress) {
        return new LiveObjects("c1",
                List.of(node("gw-b", "172.18.0.3", true, Map.of(ClusterModelBuilder.CNI_IP_ANNOTATION, "10.0.1.1")),
                        node("gw-a", "172.18.0.2", true, Map.of(ClusterModelBuilder.CNI_IP_ANNOTATION, "not-an-address")),
                        node("worker", "172.18.0.4", false, Map.of())),
                pods, List.of(), List.of(), List.of(), List.of(), egress, List.of(), List.of(clusterObject(multiActive, "10.0.0.0/16")),
                List.of(), List.of(), List.of(), leases, List.of());
    }

    @Test
    void theSingleLeaseHolderComesFirstAmongTheGateways() {
        Cluster cluster = ClusterModelBuilder.build("s", List.of(live(false, Optional.of(Set.of("gw-b")), List.of(), List.of())))
                .clusterSet().requireCluster("c1");

        assertThat(cluster.activeGateways()).extracting(n -> n.name()).containsExactly("gw-b");
        assertThat(cluster.requireNode("gw-b").cniIp()).hasToString("10.0.1.1");
    }

    @Test
    void withMultipleActiveGatewaysOnlyLeaseHoldersAreGateways() {
        Cluster cluster = ClusterModelBuilder.build("s", List.of(live(true, Optional.of(Set.of("gw-a")), List.of(), List.of())))
                .clusterSet().requireCluster("c1");

        assertThat(cluster.activeGateways()).extracting(n -> n.name()).containsExactly("gw-a");
        assertThat(cluster.requireNode("gw-b").gateway()).isFalse();
    }

    @Test
    void badObjectsAreNamedAsProblemsAndTheRestIsBuilt() {
        GlobalEgressIPResource badSelector = new GlobalEgressIPResource();
        badSelector.setMetadata(new ObjectMetaBuilder().withName("bad").withNamespace("default").build());
        badSelector.setSpec(new GlobalEgressIPSpec(1, new LabelSelectorBuilder().addToMatchExpressions(
                new LabelSelectorRequirementBuilder().withKey("a").withOperator("Sometimes").build()).build()));
        LiveModel model = ClusterModelBuilder.build("s", List.of(live(false, Optional.empty(),
                List.of(pod("ok", "worker", "10.0.2.5"), pod("outside", "worker", "192.168.7.7"), pod("lost", "no-node", "10.0.2.6")),
                List.of(badSelector))));

        Cluster cluster = model.clusterSet().requireCluster("c1");
        assertThat(cluster.pods()).extracting(p -> p.name()).containsExactly("ok");
        assertThat(cluster.globalEgressIPs()).isEmpty();
        assertThat(model.problems()).extracting(ModelProblem::toString).anySatisfy(p -> assertThat(p).contains("Pod default/outside", "is outside cluster c1's podCIDRs", "cluster_cidr"))
                .anySatisfy(p -> assertThat(p).contains("Pod default/lost", "no-node"))
                .anySatisfy(p -> assertThat(p).contains("GlobalEgressIP default/bad", "Sometimes"))
                .anySatisfy(p -> assertThat(p).contains("Node gw-a", "not-an-address"))
                .anySatisfy(p -> assertThat(p).contains("cni", "no-such-cni"));
        // Without any lease, labels alone decide, in name order.
        assertThat(cluster.activeGateways()).extracting(n -> n.name()).containsExactly("gw-a");
    }
}
