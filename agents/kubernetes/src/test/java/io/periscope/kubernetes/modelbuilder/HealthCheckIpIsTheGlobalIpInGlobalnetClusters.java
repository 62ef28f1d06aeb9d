package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.model.topology.Node;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's Endpoint carries in {@code healthCheckIP} the gateway's CNI address without Globalnet and
 * the gateway node's global IP with it: a snapshot must not take a global IP for the CNI address.
 */
class HealthCheckIpIsTheGlobalIpInGlobalnetClusters {

    private static SubmarinerCluster cluster(String id, String podCidr, List<String> globalCidr) {
        SubmarinerCluster cluster = new SubmarinerCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(id).withNamespace("submariner-operator").build());
        cluster.setSpec(new ClusterSpec(id, null, List.of(podCidr), List.of("100.0.0.0/16"), globalCidr, null, false, null, null, null));
        return cluster;
    }

    private static SubmarinerEndpoint endpoint(String healthCheckIp) {
        SubmarinerEndpoint endpoint = new SubmarinerEndpoint();
        endpoint.setMetadata(new ObjectMetaBuilder().withName("c2-submariner-cable-c2-172-18-1-2").withNamespace("submariner-operator").build());
        endpoint.setSpec(new EndpointSpec("c2", "submariner-cable-c2-172-18-1-2", healthCheckIp, "gw-2", List.of("242.0.2.0/24"),
                "172.18.1.2", "172.18.1.2", false, "vxlan", Map.of(), List.of()));
        return endpoint;
    }

    private static Node remoteGateway(List<String> remoteGlobalCidr, String healthCheckIp) {
        io.fabric8.kubernetes.api.model.Node gateway = new NodeBuilder().withNewMetadata().withName("gw-1")
                .withLabels(Map.of(SubmarinerApi.GATEWAY_LABEL, "true")).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress("172.18.0.2").endAddress().endStatus().build();
        LiveObjects live = new LiveObjects("c1", List.of(gateway), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(cluster("c1", "10.0.0.0/16", List.of("242.0.1.0/24")), cluster("c2", "10.1.0.0/16", remoteGlobalCidr)),
                List.of(endpoint(healthCheckIp)), List.of(), List.of(), Optional.empty(), List.of());
        return ClusterModelBuilder.build("s", List.of(live)).clusterSet().requireCluster("c2").requireNode("gw-2");
    }

    @Test
    void aGlobalIpInHealthCheckIpIsNotTakenForTheCniAddress() {
        Node gateway = remoteGateway(List.of("242.0.2.0/24"), "242.0.2.1");
        assertThat(gateway.cniIp()).hasToString("172.18.1.2");
        assertThat(gateway.ip()).hasToString("172.18.1.2");
    }

    @Test
    void withoutGlobalnetHealthCheckIpIsTheCniAddress() {
        assertThat(remoteGateway(List.of(), "10.1.0.1").cniIp()).hasToString("10.1.0.1");
    }
}
