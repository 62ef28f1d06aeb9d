package io.periscope.model.globalnet;

import io.periscope.model.globalnet.GlobalIpAllocation.ClusterEgress;
import io.periscope.model.globalnet.GlobalIpAllocation.Egress;
import io.periscope.model.globalnet.GlobalIpAllocation.EgressSlice;
import io.periscope.model.globalnet.GlobalIpAllocation.Gateway;
import io.periscope.model.globalnet.GlobalIpAllocation.Ingress;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyNode;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyPod;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyService;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.GlobalEgressIP;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One cluster's global IPs: its global CIDR and every object that asked for addresses, in the order
 * they asked (which decides who got what).
 *
 * @param freeCount addresses left in the pool after every allocation
 */
public final class ClusterGlobalnetAllocations {

    private final String cluster;
    private final Ipv4Prefix globalCidr;
    private final List<GlobalIpAllocation> allocations;
    private final int freeCount;
    /**
     * First allocation per lookup key: the planner asks once per pod and service, and a scan per
     * question would make planning quadratic in the cluster's size.
     */
    private final Map<String, GlobalIpAllocation> byKey = new HashMap<>();
    /**
     * The first GlobalIngressIP of each exported ClusterIP service, by namespace and service name,
     * and the first Gateway allocation of each node: asked by every gateway and for every node of a
     * large set, tens of thousands of times a planning, and a key text joined for each question
     * (then hashed and compared whole) was most of what answering cost.
     */
    private final Map<String, Map<String, Ingress>> serviceIngress = new HashMap<>();
    private final Map<String, Gateway> gateways = new HashMap<>();

    public ClusterGlobalnetAllocations(String cluster, Ipv4Prefix globalCidr, List<GlobalIpAllocation> allocations, int freeCount) {
        this.cluster = cluster;
        this.globalCidr = globalCidr;
        this.allocations = List.copyOf(allocations);
        this.freeCount = freeCount;
        for (GlobalIpAllocation allocation : this.allocations) {
            byKey.putIfAbsent(key(allocation), allocation);
            switch (allocation) {
                case Ingress i when i.object().target() == GlobalIngressTarget.CLUSTER_IP_SERVICE ->
                        serviceIngress.computeIfAbsent(i.object().namespace(), n -> new HashMap<>()).putIfAbsent(i.object().serviceName(), i);
                case Gateway g -> gateways.putIfAbsent(g.node().name(), g);
                default -> {
                }
            }
        }
    }

    private static String key(GlobalIpAllocation allocation) {
        return switch (allocation) {
            case ClusterEgress e -> "cluster-egress\0" + e.object().gatewayNode().orElse("");
            case Egress e -> "egress\0" + e.object().namespace() + "\0" + e.object().name();
            case EgressSlice e -> "egress-slice\0" + e.object().namespace() + "\0" + e.object().name() + "\0" + e.gateway();
            case Ingress i -> i.object().target() == GlobalIngressTarget.CLUSTER_IP_SERVICE
                    ? "svc\0" + i.object().namespace() + "\0" + i.object().serviceName()
                    : "pod\0" + i.object().namespace() + "\0" + i.object().podName().orElse("");
            case Gateway g -> "gateway\0" + g.node().name();
            case LegacyService s -> "legacy-svc\0" + s.service().namespace() + "\0" + s.service().name();
            case LegacyPod p -> "legacy-pod\0" + p.pod().namespace() + "\0" + p.pod().name();
            case LegacyNode n -> "legacy-node\0" + n.node().name();
        };
    }

    private <T extends GlobalIpAllocation> Optional<T> lookup(Class<T> kind, String key) {
        GlobalIpAllocation found = byKey.get(key);
        return kind.isInstance(found) ? Optional.of(kind.cast(found)) : Optional.empty();
    }

    public String cluster() {
        return cluster;
    }

    public Ipv4Prefix globalCidr() {
        return globalCidr;
    }

    public List<GlobalIpAllocation> allocations() {
        return allocations;
    }

    public int freeCount() {
        return freeCount;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterGlobalnetAllocations other && cluster.equals(other.cluster) && globalCidr.equals(other.globalCidr)
                && allocations.equals(other.allocations) && freeCount == other.freeCount;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cluster, globalCidr, allocations, freeCount);
    }

    @Override
    public String toString() {
        return "ClusterGlobalnetAllocations[cluster=" + cluster + ", globalCidr=" + globalCidr + ", allocations="
                + allocations.size() + ", freeCount=" + freeCount + "]";
    }

    /** The cluster's ClusterGlobalEgressIP objects: one, or one per gateway in node order with multiple active gateways. */
    public List<ClusterEgress> clusterEgress() {
        return ofKind(ClusterEgress.class).toList();
    }

    /**
     * The ClusterGlobalEgressIP whose addresses {@code gatewayNode} SNATs cluster egress to: the
     * gateway's own with multiple active gateways, otherwise the cluster's single object (which only
     * the active gateway programs; this lookup does not check which gateway that is).
     */
    public Optional<ClusterEgress> clusterEgress(String gatewayNode) {
        List<ClusterEgress> all = clusterEgress();
        Optional<ClusterEgress> own = all.stream()
                .filter(e -> e.object().gatewayNode().filter(gatewayNode::equals).isPresent()).findFirst();
        if (own.isPresent()) {
            return own;
        }
        return all.size() == 1 && all.getFirst().object().gatewayNode().isEmpty() ? Optional.of(all.getFirst()) : Optional.empty();
    }

    public List<Egress> egress() {
        return ofKind(Egress.class).toList();
    }

    public Optional<Egress> egress(String namespace, String name) {
        return lookup(Egress.class, "egress\0" + namespace + "\0" + name);
    }

    /** With per-gateway egress ownership: the GlobalEgressIP's slice that {@code gateway} SNATs to. */
    public Optional<EgressSlice> egressSlice(String namespace, String name, String gateway) {
        return lookup(EgressSlice.class, "egress-slice\0" + namespace + "\0" + name + "\0" + gateway);
    }

    /** With per-gateway egress ownership: every slice of the GlobalEgressIP, in gateway order. */
    public List<EgressSlice> egressSlices(String namespace, String name) {
        return ofKind(EgressSlice.class).filter(e -> e.object().namespace().equals(namespace) && e.object().name().equals(name)).toList();
    }

    public List<Ingress> ingress() {
        return ofKind(Ingress.class).toList();
    }

    /** The GlobalIngressIP of an exported ClusterIP service. */
    public Optional<Ingress> ingressForService(String namespace, String service) {
        Map<String, Ingress> inNamespace = serviceIngress.get(namespace);
        return inNamespace == null ? Optional.empty() : Optional.ofNullable(inNamespace.get(service));
    }

    /** The GlobalIngressIP of a pod behind an exported headless service. */
    public Optional<Ingress> ingressForPod(String namespace, String pod) {
        return lookup(Ingress.class, "pod\0" + namespace + "\0" + pod);
    }

    /** Globalnet 2.0: the global IP the gateway on {@code node} holds on its Gateway object (its health-check address). */
    public Optional<Gateway> gateway(String node) {
        return Optional.ofNullable(gateways.get(node));
    }

    /**
     * A gateway's own global IP, its Endpoint's {@code healthCheckIP}: its Gateway object's
     * (Globalnet 2.0), or with legacy Globalnet the node's annotation (every node has one there, and
     * upstream's legacy controller uses the active gateway's for health checks too). Asked only
     * for active gateways; a failed gateway still holds its own (see {@link GlobalnetAllocator}).
     */
    public Optional<Ipv4Address> gatewayGlobalIp(String node) {
        return gateway(node).flatMap(GlobalIpAllocation::address).or(() -> legacyNodeIp(node));
    }

    public Optional<LegacyService> legacyService(String namespace, String service) {
        return lookup(LegacyService.class, "legacy-svc\0" + namespace + "\0" + service);
    }

    public Optional<LegacyPod> legacyPod(String namespace, String pod) {
        return lookup(LegacyPod.class, "legacy-pod\0" + namespace + "\0" + pod);
    }

    public Optional<LegacyNode> legacyNode(String node) {
        return lookup(LegacyNode.class, "legacy-node\0" + node);
    }

    public Optional<Ipv4Address> legacyPodIp(String namespace, String pod) {
        return legacyPod(namespace, pod).flatMap(GlobalIpAllocation::address);
    }

    public Optional<Ipv4Address> legacyNodeIp(String node) {
        return legacyNode(node).flatMap(GlobalIpAllocation::address);
    }

    /**
     * The address remote clusters reach an exported ClusterIP service at, in either design: its
     * GlobalIngressIP (Globalnet 2.0) or its annotation (legacy). Lighthouse answers DNS with it.
     */
    public Optional<Ipv4Address> serviceGlobalIp(String namespace, String service) {
        return ingressForService(namespace, service).flatMap(GlobalIpAllocation::address)
                .or(() -> legacyService(namespace, service).flatMap(GlobalIpAllocation::address));
    }

    /** Every object whose allocation failed, in allocation order. */
    public List<GlobalIpAllocation> failures() {
        return allocations.stream().filter(a -> !a.condition().succeeded()).toList();
    }

    private <T extends GlobalIpAllocation> Stream<T> ofKind(Class<T> kind) {
        return allocations.stream().filter(kind::isInstance).map(kind::cast);
    }

}
