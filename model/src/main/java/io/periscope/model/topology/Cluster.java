package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Prefix;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One Kubernetes cluster of the set. {@code globalCidr} is what the file declares; clusters that
 * declare none get one from the broker (see {@code GlobalCidrAllocator}).
 *
 * @param clusterEgressIPs the ClusterGlobalEgressIP's number of IPs; per gateway when
 *                         {@code multiActiveGateways} is set
 * @param egressOwnership  with several active gateways and Globalnet: whether every egress address
 *                         has one owning gateway
 */
public record Cluster(
        String name,
        Map<String, String> labels,
        List<Ipv4Prefix> podCidrs,
        List<Ipv4Prefix> serviceCidrs,
        Optional<Ipv4Prefix> globalCidr,
        Cni cni,
        boolean multiActiveGateways,
        int clusterEgressIPs,
        GatewayLoadBalancing loadBalancing,
        List<Node> nodes,
        List<Pod> pods,
        List<Service> services,
        List<ServiceExport> exports,
        List<GlobalEgressIP> globalEgressIPs,
        NodeEnvironment environment,
        EgressOwnership egressOwnership) {

    /** Upstream's default number of cluster egress IPs. */
    public static final int DEFAULT_CLUSTER_EGRESS_IPS = 8;

    /** A cluster whose nodes have {@link NodeEnvironment#DEFAULT}. */
    public Cluster(String name, Map<String, String> labels, List<Ipv4Prefix> podCidrs, List<Ipv4Prefix> serviceCidrs,
                   Optional<Ipv4Prefix> globalCidr, Cni cni, boolean multiActiveGateways, int clusterEgressIPs,
                   GatewayLoadBalancing loadBalancing, List<Node> nodes, List<Pod> pods, List<Service> services,
                   List<ServiceExport> exports, List<GlobalEgressIP> globalEgressIPs) {
        this(name, labels, podCidrs, serviceCidrs, globalCidr, cni, multiActiveGateways, clusterEgressIPs, loadBalancing, nodes, pods,
                services, exports, globalEgressIPs, NodeEnvironment.DEFAULT);
    }

    /** A cluster whose egress addresses are shared by its gateways, as seed 004 describes. */
    public Cluster(String name, Map<String, String> labels, List<Ipv4Prefix> podCidrs, List<Ipv4Prefix> serviceCidrs,
                   Optional<Ipv4Prefix> globalCidr, Cni cni, boolean multiActiveGateways, int clusterEgressIPs,
                   GatewayLoadBalancing loadBalancing, List<Node> nodes, List<Pod> pods, List<Service> services,
                   List<ServiceExport> exports, List<GlobalEgressIP> globalEgressIPs, NodeEnvironment environment) {
        this(name, labels, podCidrs, serviceCidrs, globalCidr, cni, multiActiveGateways, clusterEgressIPs, loadBalancing, nodes, pods,
                services, exports, globalEgressIPs, environment, EgressOwnership.SHARED);
    }

    /** The same cluster with {@code newNodes} (a node's agent discovering its own interface, a test's variant). */
    public Cluster withNodes(List<Node> newNodes) {
        return new Cluster(name, labels, podCidrs, serviceCidrs, globalCidr, cni, multiActiveGateways, clusterEgressIPs, loadBalancing,
                newNodes, pods, services, exports, globalEgressIPs, environment, egressOwnership);
    }

    public Cluster withEgressOwnership(EgressOwnership ownership) {
        return new Cluster(name, labels, podCidrs, serviceCidrs, globalCidr, cni, multiActiveGateways, clusterEgressIPs, loadBalancing,
                nodes, pods, services, exports, globalEgressIPs, environment, ownership);
    }

    /** The same cluster spreading flows over its gateways by {@code option} (seed 004's options 1 to 3). */
    public Cluster withLoadBalancing(GatewayLoadBalancing option) {
        return new Cluster(name, labels, podCidrs, serviceCidrs, globalCidr, cni, multiActiveGateways, clusterEgressIPs, option,
                nodes, pods, services, exports, globalEgressIPs, environment, egressOwnership);
    }

    /** Whether each egress address has one owning gateway (several active gateways, the setting on). */
    public boolean egressPerGateway() {
        return multiActiveGateways && egressOwnership == EgressOwnership.PER_GATEWAY;
    }

    public Cluster {
        labels = Map.copyOf(labels);
        podCidrs = List.copyOf(podCidrs);
        serviceCidrs = List.copyOf(serviceCidrs);
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        services = List.copyOf(services);
        exports = List.copyOf(exports);
        globalEgressIPs = List.copyOf(globalEgressIPs);
    }

    public Optional<Node> node(String nodeName) {
        return nodes.stream().filter(n -> n.name().equals(nodeName)).findFirst();
    }

    public Node requireNode(String nodeName) {
        return node(nodeName).orElseThrow(() -> new IllegalArgumentException("cluster " + name + " has no node '" + nodeName + "'"));
    }

    public Optional<Pod> pod(String namespace, String podName) {
        return pods.stream().filter(p -> p.namespace().equals(namespace) && p.name().equals(podName)).findFirst();
    }

    public Optional<Service> service(String namespace, String serviceName) {
        return services.stream().filter(s -> s.namespace().equals(namespace) && s.name().equals(serviceName)).findFirst();
    }

    public List<Node> gateways() {
        return nodes.stream().filter(Node::gateway).toList();
    }

    /**
     * The gateways that carry traffic: every gateway with multiple active gateways, otherwise the
     * first one (the leader; the others wait on the leadership lease).
     */
    public List<Node> activeGateways() {
        List<Node> gateways = gateways();
        return multiActiveGateways || gateways.isEmpty() ? gateways : List.of(gateways.getFirst());
    }

    public boolean isExported(Service service) {
        return exports.stream().anyMatch(e -> e.namespace().equals(service.namespace()) && e.name().equals(service.name()));
    }

    /** The pods a service's selector picks, in file order; host-network pods are never service endpoints here. */
    public List<Pod> endpointsOf(Service service) {
        if (service.selector().isEmpty()) {
            return List.of();
        }
        List<Pod> endpoints = new java.util.ArrayList<>();
        for (Pod pod : pods) {
            if (!pod.hostNetwork() && pod.namespace().equals(service.namespace()) && service.selector().matches(pod.labels())) {
                endpoints.add(pod);
            }
        }
        return List.copyOf(endpoints);
    }
}
