package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds cluster sets for tests without the YAML loader; only what Globalnet reads has to be given. */
final class TopologyFixture {

    private TopologyFixture() {
    }

    static GlobalnetConfig globalnet(String cidr, int clusterSize) {
        return new GlobalnetConfig(true, Ipv4Prefix.parse(cidr), clusterSize, GlobalnetMode.V2);
    }

    static GlobalnetConfig legacyGlobalnet(String cidr, int clusterSize) {
        return new GlobalnetConfig(true, Ipv4Prefix.parse(cidr), clusterSize, GlobalnetMode.LEGACY);
    }

    static ClusterSet clusterSet(GlobalnetConfig globalnet, Cluster... clusters) {
        return new ClusterSet("test", globalnet, CableDriver.VXLAN, List.of(clusters), List.of(), List.of(), List.of());
    }

    static ClusterBuilder cluster(String name) {
        return new ClusterBuilder(name);
    }

    /** examples/mag-globalnet.yaml, field by field. */
    static ClusterSet magGlobalnet() {
        return clusterSet(globalnet("242.254.0.0/16", 256),
                cluster("cluster1").globalCidr("242.254.1.0/24").multiActiveGateways().clusterEgressIPs(8)
                        .gateway("gw-1", "172.18.0.6", "10.0.0.1")
                        .gateway("gw-2", "172.18.0.8", "10.0.64.1")
                        .worker("worker-1", "172.18.0.10", "10.0.128.1")
                        .pod("default", "client", "worker-1", "10.0.128.4", Map.of("app", "client"))
                        .build(),
                cluster("cluster2").globalCidr("242.254.2.0/24").multiActiveGateways().clusterEgressIPs(8)
                        .gateway("gw-3", "172.18.0.4", "10.0.0.1")
                        .gateway("gw-4", "172.18.0.9", "10.0.192.1")
                        .worker("worker-2", "172.18.0.12", "10.0.128.1")
                        .pod("default", "nginx-7d4f", "worker-2", "10.0.128.5", Map.of("app", "nginx"))
                        .service("default", "nginx", "100.0.0.132", Map.of("app", "nginx"))
                        .export("default", "nginx")
                        .build());
    }

    static final class ClusterBuilder {
        private final String name;
        private Optional<Ipv4Prefix> globalCidr = Optional.empty();
        private boolean multiActiveGateways;
        private int clusterEgressIPs = Cluster.DEFAULT_CLUSTER_EGRESS_IPS;
        private final List<Node> nodes = new ArrayList<>();
        private final List<Pod> pods = new ArrayList<>();
        private final List<Service> services = new ArrayList<>();
        private final List<ServiceExport> exports = new ArrayList<>();
        private final List<GlobalEgressIP> globalEgressIPs = new ArrayList<>();

        private ClusterBuilder(String name) {
            this.name = name;
        }

        ClusterBuilder globalCidr(String cidr) {
            globalCidr = Optional.of(Ipv4Prefix.parse(cidr));
            return this;
        }

        ClusterBuilder multiActiveGateways() {
            multiActiveGateways = true;
            return this;
        }

        ClusterBuilder clusterEgressIPs(int n) {
            clusterEgressIPs = n;
            return this;
        }

        ClusterBuilder gateway(String node, String ip, String cniIp) {
            nodes.add(new Node(node, Ipv4Address.parse(ip), Ipv4Address.parse(cniIp), true, Optional.empty()));
            return this;
        }

        ClusterBuilder worker(String node, String ip, String cniIp) {
            nodes.add(new Node(node, Ipv4Address.parse(ip), Ipv4Address.parse(cniIp), false, Optional.empty()));
            return this;
        }

        ClusterBuilder pod(String namespace, String pod, String node, String ip, Map<String, String> labels) {
            pods.add(new Pod(pod, namespace, node, Ipv4Address.parse(ip), labels, false));
            return this;
        }

        ClusterBuilder hostNetworkPod(String namespace, String pod, String node, String ip, Map<String, String> labels) {
            pods.add(new Pod(pod, namespace, node, Ipv4Address.parse(ip), labels, true));
            return this;
        }

        ClusterBuilder service(String namespace, String service, String clusterIp, Map<String, String> selector) {
            services.add(new Service(service, namespace, Optional.of(Ipv4Address.parse(clusterIp)), LabelSelector.ofLabels(selector),
                    List.of(new ServicePort(80, 80, Protocol.TCP))));
            return this;
        }

        ClusterBuilder headlessService(String namespace, String service, Map<String, String> selector) {
            services.add(new Service(service, namespace, Optional.empty(), LabelSelector.ofLabels(selector),
                    List.of(new ServicePort(80, 80, Protocol.TCP))));
            return this;
        }

        ClusterBuilder export(String namespace, String service) {
            exports.add(new ServiceExport(namespace, service));
            return this;
        }

        ClusterBuilder namespaceEgress(String egressName, String namespace, int numberOfIPs) {
            globalEgressIPs.add(new GlobalEgressIP(egressName, namespace, Optional.empty(), numberOfIPs));
            return this;
        }

        ClusterBuilder podEgress(String egressName, String namespace, Map<String, String> podSelector, int numberOfIPs) {
            globalEgressIPs.add(new GlobalEgressIP(egressName, namespace, Optional.of(LabelSelector.ofLabels(podSelector)), numberOfIPs));
            return this;
        }

        Cluster build() {
            return new Cluster(name, Map.of(), List.of(Ipv4Prefix.parse("10.0.0.0/16")), List.of(Ipv4Prefix.parse("100.0.0.0/16")),
                    globalCidr, Cni.KUBE_PROXY, multiActiveGateways, clusterEgressIPs, GatewayLoadBalancing.MULTIPATH_ROUTES,
                    nodes, pods, services, exports, globalEgressIPs);
        }
    }
}
