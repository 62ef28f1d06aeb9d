package io.periscope.kubernetes.nodeplan;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.model.topology.NodeLink;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.link.VxlanDevice;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Kubernetes node agent plans its own node with the default interface it discovered (name and MTU)
 * instead of the lab's eth0 and 1500: vx-submariner sits on that interface with its MTU minus 50.
 * Other nodes keep their defaults: only the node itself can see its interface.
 */
class ARealNodePlansWithItsDiscoveredInterface {

    private static io.fabric8.kubernetes.api.model.Node node(String name, String ip, String cniIp, boolean gateway) {
        return new NodeBuilder().withNewMetadata().withName(name).withAnnotations(Map.of(ClusterModelBuilder.CNI_IP_ANNOTATION, cniIp))
                .withLabels(gateway ? Map.of(SubmarinerApi.GATEWAY_LABEL, "true") : Map.of()).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress(ip).endAddress().endStatus().build();
    }

    private static LiveObjects live() {
        SubmarinerCluster cluster = new SubmarinerCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("c1").withNamespace("submariner-operator").build());
        cluster.setSpec(new ClusterSpec("c1", null, List.of("10.0.0.0/16"), List.of("100.0.0.0/16"), List.of(), "kube-proxy",
                false, null, null, null));
        return new LiveObjects("c1", List.of(node("gw", "172.18.0.2", "10.0.0.1", true), node("worker", "172.18.0.4", "10.0.128.1", false)),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(cluster), List.of(), List.of(), List.of(),
                Optional.<Set<String>>empty(), List.of());
    }

    private static VxlanDevice vxSubmariner(DataplanePlan plan) {
        return plan.vxlanDevices().stream().filter(d -> d.name().equals("vx-submariner")).findFirst().orElseThrow();
    }

    @Test
    void vxSubmarinerTakesTheDiscoveredInterfacesMtuLess50AndBindsToNoDevice() {
        LiveNodePlan plan = LiveNodePlan.of(live(), "worker", Optional.of(NodeLink.of("ens5", 9001)));

        VxlanDevice device = vxSubmariner(plan.submarinerWith(Set.of()));
        assertThat(device.underlay()).as("upstream's device has no dev: routing picks the interface").isEmpty();
        assertThat(device.mtu()).isEqualTo(8951);
        assertThat(plan.model().clusterSet().requireCluster("c1").requireNode("gw").link()).as("other nodes' interfaces are unknown here")
                .isEqualTo(NodeLink.UNSTATED);
    }

    @Test
    void withoutADiscoveredInterfaceTheNodeIsPlannedAsTheLabsIs() {
        LiveNodePlan plan = LiveNodePlan.of(live(), "worker");

        VxlanDevice device = vxSubmariner(plan.submarinerWith(Set.of()));
        assertThat(device.underlay()).isEmpty();
        assertThat(device.mtu()).isEqualTo(1450);
    }
}
