package io.periscope.features.lab;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.HostId;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Endpoints as the lab's kernels show them. The lab runs no broker: an Endpoint shows up as the
 * cables the other clusters' gateways hold to its gateway ({@link KernelTunnels}), and its
 * Globalnet addresses as its gateway programs them ({@link KernelGlobalIps}): the
 * {@code allocatedIPs} are the range the gateway SNATs cluster egress to, the {@code healthCheckIP}
 * the address it DNATs echo requests from. An Endpoint whose gateway no other cluster holds a cable
 * to, where the plan has some, is missing from the answer; a cable to a node that publishes no
 * Endpoint fails the read. The subnets, and whatever of a gateway no kernel shows (an Endpoint of a
 * cluster connected to none, the CNI address as health-check address without Globalnet) are the
 * plan's, and {@link Answer#fromModel} says which.
 */
final class KernelEndpoints {

    private KernelEndpoints() {
    }

    record Answer(List<Endpoint> endpoints, List<String> fromModel) {
    }

    /**
     * @param planned   the cables the plan gives the gateways
     * @param kernel    the cables their kernels hold
     * @param model     the planner's allocations, which the plan's Endpoints were made from
     * @param allocated the same allocations as the kernels hold them
     */
    static Answer read(List<Endpoint> endpoints, KernelTunnels planned, KernelTunnels kernel, GlobalnetAllocations model,
                       GlobalnetAllocations allocated) {
        List<Endpoint> seen = new ArrayList<>();
        List<String> fromModel = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            HostId gateway = HostId.node(endpoint.clusterId(), endpoint.hostname());
            if (planned.peersOf(gateway).isEmpty()) {
                fromModel.add(endpoint.name() + " (no other cluster's gateway has a cable to it)");
            } else if (kernel.peersOf(gateway).isEmpty()) {
                continue;
            }
            String cluster = endpoint.clusterId();
            String node = endpoint.hostname();
            List<Ipv4Address> allocatedIps = endpoint.allocatedIPs();
            Optional<GlobalIpAllocation.ClusterEgress> egress = model.clusterEgress(cluster, node);
            if (egress.filter(e -> e.addresses().equals(endpoint.allocatedIPs())).isPresent() && !allocatedIps.isEmpty()) {
                allocatedIps = allocated.clusterEgress(cluster, node).map(GlobalIpAllocation::addresses).orElse(List.of());
            } else if (!allocatedIps.isEmpty()) {
                fromModel.add(endpoint.name() + "'s allocatedIPs");
            }
            Optional<Ipv4Address> healthCheck = endpoint.healthCheckIp();
            if (healthCheck.isPresent() && healthCheck.equals(model.gatewayGlobalIp(cluster, node))) {
                healthCheck = allocated.gatewayGlobalIp(cluster, node);
            } else {
                fromModel.add(endpoint.name() + "'s healthCheckIP");
            }
            seen.add(new Endpoint(cluster, node, endpoint.privateIp(), endpoint.publicIp(), endpoint.subnets(), endpoint.backend(),
                    endpoint.backendConfig(), allocatedIps, healthCheck));
        }
        List<String> strays = new ArrayList<>();
        for (KernelTunnels.Tunnel tunnel : kernel.tunnels()) {
            boolean published = endpoints.stream().anyMatch(e -> HostId.node(e.clusterId(), e.hostname()).equals(tunnel.to()));
            if (!published) {
                strays.add(tunnel.from() + " holds a " + tunnel.driver().yamlName() + " cable to " + tunnel.to());
            }
        }
        if (!strays.isEmpty()) {
            throw new AssertionError("the lab's gateways hold cables to nodes that publish no Endpoint:\n  " + String.join("\n  ", strays));
        }
        fromModel.add("the Endpoints' subnets");
        return new Answer(seen, fromModel);
    }
}
