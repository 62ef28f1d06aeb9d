package io.periscope.planner;

import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.List;
import java.util.Optional;

/** {@link GlobalAddresses} answered from the IPAM's allocations for a topology file. */
public record AllocatedGlobalAddresses(GlobalnetAllocations allocations) implements GlobalAddresses {

    @Override
    public Optional<Ipv4Prefix> globalCidr(String cluster) {
        return allocations.cluster(cluster).map(c -> c.globalCidr());
    }

    @Override
    public List<Ipv4Address> clusterEgress(String cluster, Optional<String> gateway) {
        if (gateway.isPresent()) {
            return allocations.clusterEgress(cluster, gateway.get()).map(GlobalIpAllocation::addresses).orElse(List.of());
        }
        return allocations.clusterEgress(cluster).stream().findFirst().map(GlobalIpAllocation::addresses).orElse(List.of());
    }

    @Override
    public List<Ipv4Address> egress(String cluster, String namespace, String name) {
        return allocations.egress(cluster, namespace, name).map(GlobalIpAllocation::addresses)
                .orElseGet(() -> allocations.egressSlices(cluster, namespace, name).stream().flatMap(s -> s.addresses().stream()).toList());
    }

    @Override
    public List<Ipv4Address> egress(String cluster, String namespace, String name, String gateway) {
        // Under per-gateway ownership a gateway SNATs to its slice or to nothing: never to another gateway's addresses.
        return allocations.egressSlice(cluster, namespace, name, gateway).map(GlobalIpAllocation::addresses).orElse(List.of());
    }

    @Override
    public Optional<Ipv4Address> serviceIngress(String cluster, String namespace, String service) {
        return allocations.serviceGlobalIp(cluster, namespace, service);
    }

    @Override
    public Optional<Ipv4Address> headlessPodIngress(String cluster, String namespace, String pod) {
        return allocations.ingressForPod(cluster, namespace, pod).flatMap(GlobalIpAllocation::address);
    }

    @Override
    public Optional<Ipv4Address> gatewayGlobalIp(String cluster, String node) {
        return allocations.gatewayGlobalIp(cluster, node);
    }

    @Override
    public Optional<Ipv4Address> legacyPod(String cluster, String namespace, String pod) {
        return allocations.legacyPodIp(cluster, namespace, pod);
    }

    @Override
    public Optional<Ipv4Address> legacyNode(String cluster, String node) {
        return allocations.legacyNodeIp(cluster, node);
    }
}
