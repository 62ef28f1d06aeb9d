package io.periscope.model.globalnet;

import io.periscope.model.globalnet.GlobalIpAllocation.ClusterEgress;
import io.periscope.model.globalnet.GlobalIpAllocation.Egress;
import io.periscope.model.globalnet.GlobalIpAllocation.Ingress;
import io.periscope.model.net.Ipv4Address;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every cluster's global IPs, as {@link GlobalnetAllocator} computed them; immutable. Lookups by a
 * cluster name the set does not have answer empty, like lookups of objects that do not exist.
 *
 * @param clusters per cluster name, in cluster order
 */
public record GlobalnetAllocations(Map<String, ClusterGlobalnetAllocations> clusters) {

    /** Globalnet off: nobody has a global IP. */
    public static final GlobalnetAllocations NONE = new GlobalnetAllocations(Map.of());

    public GlobalnetAllocations {
        clusters = Collections.unmodifiableMap(new LinkedHashMap<>(clusters));
    }

    public Optional<ClusterGlobalnetAllocations> cluster(String cluster) {
        return Optional.ofNullable(clusters.get(cluster));
    }

    public List<ClusterEgress> clusterEgress(String cluster) {
        return cluster(cluster).map(ClusterGlobalnetAllocations::clusterEgress).orElse(List.of());
    }

    /** See {@link ClusterGlobalnetAllocations#clusterEgress(String)}; also what the gateway's Endpoint carries as allocatedIPs. */
    public Optional<ClusterEgress> clusterEgress(String cluster, String gatewayNode) {
        return in(cluster, c -> c.clusterEgress(gatewayNode));
    }

    public Optional<Egress> egress(String cluster, String namespace, String name) {
        return in(cluster, c -> c.egress(namespace, name));
    }

    public Optional<GlobalIpAllocation.EgressSlice> egressSlice(String cluster, String namespace, String name, String gateway) {
        return cluster(cluster).flatMap(c -> c.egressSlice(namespace, name, gateway));
    }

    public List<GlobalIpAllocation.EgressSlice> egressSlices(String cluster, String namespace, String name) {
        return cluster(cluster).map(c -> c.egressSlices(namespace, name)).orElse(List.of());
    }

    public Optional<Ingress> ingressForService(String cluster, String namespace, String service) {
        return in(cluster, c -> c.ingressForService(namespace, service));
    }

    public Optional<Ingress> ingressForPod(String cluster, String namespace, String pod) {
        return in(cluster, c -> c.ingressForPod(namespace, pod));
    }

    /** A gateway's own global IP, the Endpoint's {@code healthCheckIP}: see {@link ClusterGlobalnetAllocations#gatewayGlobalIp}. */
    public Optional<Ipv4Address> gatewayGlobalIp(String cluster, String node) {
        return in(cluster, c -> c.gatewayGlobalIp(node));
    }

    public Optional<Ipv4Address> legacyPodIp(String cluster, String namespace, String pod) {
        return in(cluster, c -> c.legacyPodIp(namespace, pod));
    }

    public Optional<Ipv4Address> legacyNodeIp(String cluster, String node) {
        return in(cluster, c -> c.legacyNodeIp(node));
    }

    public Optional<Ipv4Address> serviceGlobalIp(String cluster, String namespace, String service) {
        return in(cluster, c -> c.serviceGlobalIp(namespace, service));
    }

    /** Every failed allocation of every cluster, in cluster and allocation order. */
    public List<GlobalIpAllocation> failures() {
        return clusters.values().stream().flatMap(c -> c.failures().stream()).toList();
    }

    private <T> Optional<T> in(String cluster, Function<ClusterGlobalnetAllocations, Optional<T>> lookup) {
        return cluster(cluster).flatMap(lookup);
    }
}
