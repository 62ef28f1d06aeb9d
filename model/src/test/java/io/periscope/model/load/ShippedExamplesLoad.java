package io.periscope.model.load;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The two example files of the spec load unchanged and give the records they describe. */
class ShippedExamplesLoad {

    private static final Path EXAMPLES = Path.of("..", "examples");

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    @Test
    void globalnetEgressExampleGivesTwoOverlappingClustersWithEgressObjectsServicesAndFlows() throws TopologyException {
        ClusterSet set = TopologyLoader.load(EXAMPLES.resolve("globalnet-egress.yaml"));

        assertThat(set.name()).isEqualTo("globalnet-egress");
        assertThat(set.globalnet().enabled()).isTrue();
        assertThat(set.globalnet().cidr()).isEqualTo(Ipv4Prefix.parse("242.0.0.0/8"));
        assertThat(set.globalnet().clusterSize()).isEqualTo(65536);
        assertThat(set.globalnet().mode()).isEqualTo(GlobalnetMode.V2);
        assertThat(set.defaultCableDriver()).isEqualTo(CableDriver.LIBRESWAN);
        assertThat(set.clusters()).extracting(Cluster::name).containsExactly("east", "west");

        Cluster east = set.requireCluster("east");
        assertThat(east.podCidrs()).containsExactly(Ipv4Prefix.parse("10.244.0.0/16"));
        assertThat(east.serviceCidrs()).containsExactly(Ipv4Prefix.parse("10.96.0.0/16"));
        assertThat(east.globalCidr()).isEmpty();
        assertThat(east.cni()).isEqualTo(Cni.KUBE_PROXY);
        assertThat(east.clusterEgressIPs()).isEqualTo(8);
        assertThat(east.gateways()).extracting(Node::name).containsExactly("east-gw");
        assertThat(east.requireNode("east-worker")).isEqualTo(
                new Node("east-worker", ip("192.168.10.3"), ip("10.244.1.1"), false, Optional.empty()));
        assertThat(east.pod("ns1", "db-0")).contains(
                new Pod("db-0", "ns1", "east-worker", ip("10.244.1.12"), Map.of("role", "db"), false));
        assertThat(east.globalEgressIPs()).hasSize(2);
        GlobalEgressIP namespaceEgress = east.globalEgressIPs().get(0);
        assertThat(namespaceEgress.name()).isEqualTo("ns-egressip");
        assertThat(namespaceEgress.namespaceScoped()).isTrue();
        assertThat(namespaceEgress.numberOfIPs()).isEqualTo(1);
        GlobalEgressIP podEgress = east.globalEgressIPs().get(1);
        assertThat(podEgress.namespace()).isEqualTo("ns1");
        assertThat(podEgress.numberOfIPs()).isEqualTo(2);
        assertThat(podEgress.podSelector()).hasValueSatisfying(selector -> {
            assertThat(selector.matches(Map.of("role", "db"))).isTrue();
            assertThat(selector.matches(Map.of("app", "report"))).isFalse();
        });

        Cluster west = set.requireCluster("west");
        Service nginx = west.service("default", "nginx").orElseThrow();
        assertThat(nginx.clusterIp()).contains(ip("10.96.0.50"));
        assertThat(nginx.ports()).containsExactly(new ServicePort(8080, 8080, Protocol.TCP));
        assertThat(west.endpointsOf(nginx)).extracting(Pod::name).containsExactly("nginx-1");
        Service http = west.service("myproject", "http").orElseThrow();
        assertThat(http.headless()).isTrue();
        assertThat(west.endpointsOf(http)).extracting(Pod::name).containsExactly("http-0", "http-1");
        assertThat(west.exports()).containsExactly(new ServiceExport("default", "nginx"), new ServiceExport("myproject", "http"));

        assertThat(set.flows()).extracting(Flow::name).containsExactly("web-to-nginx", "db-to-nginx", "report-to-http-0");
        Flow toHeadlessPod = set.flow("report-to-http-0").orElseThrow();
        assertThat(toHeadlessPod.from()).isEqualTo(new FlowSource.PodSource("east", "ns1", "report"));
        assertThat(toHeadlessPod.to()).isEqualTo(new FlowTarget.DnsTarget("http-0.west.http.myproject.svc.clusterset.local", 80));
        assertThat(toHeadlessPod.protocol()).isEqualTo(Protocol.TCP);
        assertThat(toHeadlessPod.expect()).contains(Disposition.DELIVERED);
    }

    @Test
    void magGlobalnetExampleGivesTwoActiveGatewaysPerClusterWithGlobalCidrsAndVxlanCables() throws TopologyException {
        ClusterSet set = TopologyLoader.load(EXAMPLES.resolve("mag-globalnet.yaml"));

        assertThat(set.name()).isEqualTo("mag-globalnet");
        assertThat(set.globalnet().cidr()).isEqualTo(Ipv4Prefix.parse("242.254.0.0/16"));
        assertThat(set.globalnet().clusterSize()).isEqualTo(256);
        assertThat(set.defaultCableDriver()).isEqualTo(CableDriver.VXLAN);
        assertThat(set.connectivityPolicies()).isEmpty();
        assertThat(set.connectionPolicies()).isEmpty();

        Cluster cluster1 = set.requireCluster("cluster1");
        assertThat(cluster1.labels()).isEqualTo(Map.of("location", "on-premise"));
        assertThat(cluster1.globalCidr()).contains(Ipv4Prefix.parse("242.254.1.0/24"));
        assertThat(cluster1.multiActiveGateways()).isTrue();
        assertThat(cluster1.clusterEgressIPs()).isEqualTo(8);
        assertThat(cluster1.activeGateways()).extracting(Node::name).containsExactly("gw-1", "gw-2");
        assertThat(cluster1.requireNode("gw-2").ip()).isEqualTo(ip("172.18.0.8"));
        assertThat(cluster1.requireNode("gw-2").cniIp()).isEqualTo(ip("10.0.64.1"));
        assertThat(cluster1.pod("default", "client").map(Pod::ip)).contains(ip("10.0.128.4"));

        Cluster cluster2 = set.requireCluster("cluster2");
        assertThat(cluster2.labels()).isEqualTo(Map.of("location", "cloud"));
        assertThat(cluster2.globalCidr()).contains(Ipv4Prefix.parse("242.254.2.0/24"));
        assertThat(cluster2.podCidrs()).isEqualTo(cluster1.podCidrs());
        assertThat(cluster2.activeGateways()).extracting(Node::name).containsExactly("gw-3", "gw-4");
        Service nginx = cluster2.service("default", "nginx").orElseThrow();
        assertThat(nginx.clusterIp()).contains(ip("100.0.0.132"));
        assertThat(cluster2.isExported(nginx)).isTrue();
        assertThat(cluster2.endpointsOf(nginx)).extracting(Pod::name).containsExactly("nginx-7d4f");

        Flow flow = set.flow("client-to-nginx").orElseThrow();
        assertThat(flow.from()).isEqualTo(new FlowSource.PodSource("cluster1", "default", "client"));
        assertThat(flow.to()).isEqualTo(new FlowTarget.DnsTarget("nginx.default.svc.clusterset.local", 80));
        assertThat(flow.expect()).contains(Disposition.DELIVERED);
    }
}
