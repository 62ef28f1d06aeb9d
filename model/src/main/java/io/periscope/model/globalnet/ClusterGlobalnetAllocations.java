package io.periscope.model.globalnet;

import io.periscope.model.globalnet.GlobalIpAllocation.ClusterEgress;
import io.periscope.model.globalnet.GlobalIpAllocation.Egress;
import io.periscope.model.globalnet.GlobalIpAllocation.Ingress;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyNode;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyPod;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyService;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * One cluster's global IPs: its global CIDR and every object that asked for addresses, in the order
 * they asked (which decides who got what).
 *
 * @param freeCount addresses left in the pool after every allocation
 */
public record ClusterGlobalnetAllocations(String cluster, Ipv4Prefix globalCidr, List<GlobalIpAllocation> allocations, int freeCount) {

    public ClusterGlobalnetAllocations {
        allocations = List.copyOf(allocations);
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
        return first(Egress.class, e -> e.object().namespace().equals(namespace) && e.object().name().equals(name));
    }

    public List<Ingress> ingress() {
        return ofKind(Ingress.class).toList();
    }

    /** The GlobalIngressIP of an exported ClusterIP service. */
    public Optional<Ingress> ingressForService(String namespace, String service) {
        return first(Ingress.class, i -> i.object().target() == GlobalIngressTarget.CLUSTER_IP_SERVICE
                && i.object().namespace().equals(namespace) && i.object().serviceName().equals(service));
    }

    /** The GlobalIngressIP of a pod behind an exported headless service. */
    public Optional<Ingress> ingressForPod(String namespace, String pod) {
        return first(Ingress.class, i -> i.object().target() == GlobalIngressTarget.HEADLESS_SERVICE_POD
                && i.object().namespace().equals(namespace) && i.object().podName().filter(pod::equals).isPresent());
    }

    public Optional<LegacyService> legacyService(String namespace, String service) {
        return first(LegacyService.class, s -> s.service().namespace().equals(namespace) && s.service().name().equals(service));
    }

    public Optional<LegacyPod> legacyPod(String namespace, String pod) {
        return first(LegacyPod.class, p -> p.pod().namespace().equals(namespace) && p.pod().name().equals(pod));
    }

    public Optional<LegacyNode> legacyNode(String node) {
        return first(LegacyNode.class, n -> n.node().name().equals(node));
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

    private <T extends GlobalIpAllocation> Optional<T> first(Class<T> kind, Predicate<T> test) {
        return ofKind(kind).filter(test).findFirst();
    }
}
