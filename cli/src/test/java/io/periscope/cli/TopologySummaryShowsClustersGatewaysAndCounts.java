package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.periscope.cli.TopologySummary.GatewayState.ACTIVE;
import static io.periscope.cli.TopologySummary.GatewayState.FAILED;
import static io.periscope.cli.TopologySummary.GatewayState.STANDBY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopologySummaryShowsClustersGatewaysAndCounts {

    /** east: two active gateways and a declared globalCIDR; west: one active gateway, OVN, an exported service, no globalCIDR. */
    private static final ClusterSet CLUSTER_SET = new ClusterSet(
            "two-clusters",
            new GlobalnetConfig(true, Ipv4Prefix.parse("242.254.0.0/16"), 256, GlobalnetMode.V2),
            CableDriver.VXLAN,
            List.of(
                    cluster("east", "10.0.0.0/16", "100.0.0.0/16", Optional.of(Ipv4Prefix.parse("242.254.1.0/24")), Cni.KUBE_PROXY, true,
                            List.of(node("gw-1", "172.18.0.6", true), node("gw-2", "172.18.0.8", true), node("worker-1", "172.18.0.10", false)),
                            List.of(pod("client", "worker-1", "10.0.128.4", "client")),
                            List.of(), List.of()),
                    cluster("west", "10.1.0.0/16", "100.1.0.0/16", Optional.empty(), Cni.OVN_KUBERNETES, false,
                            List.of(node("gw-3", "172.18.0.4", true), node("gw-4", "172.18.0.9", true), node("worker-2", "172.18.0.12", false)),
                            List.of(pod("nginx-7d4f", "worker-2", "10.1.128.5", "nginx")),
                            List.of(new Service("nginx", "default", Optional.of(Ipv4Address.parse("100.1.0.132")),
                                    LabelSelector.ofLabels(Map.of("app", "nginx")), List.of(new ServicePort(80, 80, Protocol.TCP)))),
                            List.of(new ServiceExport("default", "nginx")))),
            List.of(),
            List.of(),
            List.of(new Flow("client-to-nginx", new FlowSource.PodSource("east", "default", "client"),
                    new FlowTarget.DnsTarget("nginx.default.svc.clusterset.local", 80), Protocol.TCP, Optional.of(Disposition.DELIVERED))));

    private static Cluster cluster(String name, String podCidr, String serviceCidr, Optional<Ipv4Prefix> globalCidr, Cni cni,
                                   boolean multiActive, List<Node> nodes, List<Pod> pods, List<Service> services, List<ServiceExport> exports) {
        return new Cluster(name, Map.of(), List.of(Ipv4Prefix.parse(podCidr)), List.of(Ipv4Prefix.parse(serviceCidr)), globalCidr, cni,
                multiActive, Cluster.DEFAULT_CLUSTER_EGRESS_IPS, GatewayLoadBalancing.MULTIPATH_ROUTES, nodes, pods, services, exports, List.of());
    }

    private static Node node(String name, String ip, boolean gateway) {
        return new Node(name, Ipv4Address.parse(ip), Ipv4Address.parse(ip), gateway, Optional.empty());
    }

    private static Pod pod(String name, String node, String ip, String app) {
        return new Pod(name, "default", node, Ipv4Address.parse(ip), Map.of("app", app), false);
    }

    private static List<TopologySummary.GatewayState> gatewayStates(TopologySummary summary, int cluster) {
        return summary.clusters().get(cluster).gateways().stream().map(TopologySummary.GatewaySummary::state).toList();
    }

    @Test
    void everyGatewayIsActiveWithMultipleActiveGatewaysAndOnlyTheLeaderOtherwise() {
        TopologySummary summary = TopologySummary.of(CLUSTER_SET, List.of());

        assertThat(gatewayStates(summary, 0)).containsExactly(ACTIVE, ACTIVE);
        assertThat(gatewayStates(summary, 1)).containsExactly(ACTIVE, STANDBY);
    }

    @Test
    void aFailedLeaderHandsTheLeaseToTheNextGateway() {
        TopologySummary summary = TopologySummary.of(CLUSTER_SET, List.of(NodeReference.parse("west/gw-3")));

        assertThat(gatewayStates(summary, 1)).containsExactly(FAILED, ACTIVE);
        assertThat(gatewayStates(summary, 0)).containsExactly(ACTIVE, ACTIVE);
    }

    @Test
    void aFailedActiveGatewayLeavesTheOthersActive() {
        TopologySummary summary = TopologySummary.of(CLUSTER_SET, List.of(NodeReference.parse("east/gw-2")));

        assertThat(gatewayStates(summary, 0)).containsExactly(ACTIVE, FAILED);
    }

    @Test
    void textNamesCidrsCniGatewaysAndCounts() {
        String text = TopologySummary.of(CLUSTER_SET, List.of()).toText();

        assertThat(text).startsWith("two-clusters: 2 clusters, Globalnet on (global range 242.254.0.0/16, 256 addresses per cluster without a globalCIDR)\n");
        assertThat(text).contains(
                "east  (kube-proxy, multiple active gateways)\n",
                "  pod CIDRs      10.0.0.0/16\n",
                "  service CIDRs  100.0.0.0/16\n",
                "  global CIDR    242.254.1.0/24\n",
                "  gateways       gw-1 172.18.0.6 (active), gw-2 172.18.0.8 (active)\n",
                "  3 nodes, 1 pod, 0 services, 0 exports\n",
                "west  (ovn-kubernetes)\n",
                "  global CIDR    assigned by the broker from 242.254.0.0/16\n",
                "  gateways       gw-3 172.18.0.4 (active), gw-4 172.18.0.9 (standby)\n",
                "  3 nodes, 1 pod, 1 service, 1 export\n");
        assertThat(text).endsWith("\n1 flow\n");
    }

    @Test
    void jsonCarriesTheSameFactsUnderTheTopologyFilesNames() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode json = mapper.readTree(mapper.writeValueAsString(TopologySummary.of(CLUSTER_SET, List.of())));

        assertThat(json.path("name").asText()).isEqualTo("two-clusters");
        assertThat(json.path("globalnet").path("cidr").asText()).isEqualTo("242.254.0.0/16");
        assertThat(json.path("flows").asInt()).isEqualTo(1);
        JsonNode east = json.path("clusters").path(0);
        assertThat(east.path("podCIDRs").path(0).asText()).isEqualTo("10.0.0.0/16");
        assertThat(east.path("serviceCIDRs").path(0).asText()).isEqualTo("100.0.0.0/16");
        assertThat(east.path("globalCIDR").asText()).isEqualTo("242.254.1.0/24");
        assertThat(east.path("cni").asText()).isEqualTo("kube-proxy");
        assertThat(east.path("nodes").asInt()).isEqualTo(3);
        JsonNode west = json.path("clusters").path(1);
        assertThat(west.has("globalCIDR")).isFalse();
        assertThat(west.path("gateways").path(1).path("node").asText()).isEqualTo("gw-4");
        assertThat(west.path("gateways").path(1).path("state").asText()).isEqualTo("standby");
        assertThat(west.path("exports").asInt()).isEqualTo(1);
    }

    @Test
    void anUnknownFailedNodeIsExplainedWithWhatTheFileHas() {
        assertThatThrownBy(() -> NodeReference.parse("west/gw-9").requireIn(CLUSTER_SET))
                .hasMessage("cluster west has no node 'gw-9' (nodes: gw-3, gw-4, worker-2)");
        assertThatThrownBy(() -> NodeReference.parse("north/gw-1").requireIn(CLUSTER_SET))
                .hasMessage("the file has no cluster 'north' (clusters: east, west)");
        assertThat(NodeReference.parse("east/worker-1").requireIn(CLUSTER_SET).name()).isEqualTo("worker-1");
    }
}
