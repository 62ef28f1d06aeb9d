package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.ServiceExport;

import java.util.List;
import java.util.Optional;

/**
 * One object that asked a cluster's pool for global IPs, what it got and the status condition
 * Globalnet would write on it. The first kinds are Globalnet 2.0's objects (seed 002, with seed
 * 004's per-gateway ClusterGlobalEgressIP) and the gateways' own global IPs; the
 * {@code Legacy*} kinds are the first design's {@code submariner.io/globalIp} annotations (seed 000).
 */
public sealed interface GlobalIpAllocation {

    /** The addresses held, empty unless the condition succeeded. */
    List<Ipv4Address> addresses();

    AllocationCondition condition();

    /** The object as named in messages and as the pool's owner, e.g. {@code GlobalEgressIP ns1/db-pods}. */
    String requester();

    /**
     * The addresses as one range, as an SNAT {@code --to-source} wants them; present whenever
     * something was allocated, because the pool only hands out single addresses and contiguous blocks.
     */
    default Optional<Ipv4Range> range() {
        List<Ipv4Address> addresses = addresses();
        if (addresses.isEmpty()) {
            return Optional.empty();
        }
        for (int i = 1; i < addresses.size(); i++) {
            if (!addresses.get(i).equals(addresses.get(i - 1).plus(1))) {
                return Optional.empty();
            }
        }
        return Optional.of(new Ipv4Range(addresses.getFirst(), addresses.getLast()));
    }

    /** The single address of a one-address object (ingress IPs, legacy annotations). */
    default Optional<Ipv4Address> address() {
        return addresses().size() == 1 ? Optional.of(addresses().getFirst()) : Optional.empty();
    }

    record ClusterEgress(ClusterGlobalEgressIP object, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public ClusterEgress {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(object);
        }

        public static String requesterName(ClusterGlobalEgressIP object) {
            return "ClusterGlobalEgressIP " + object.name();
        }
    }

    record Egress(GlobalEgressIP object, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public Egress {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(object);
        }

        public static String requesterName(GlobalEgressIP object) {
            return "GlobalEgressIP " + object.namespace() + "/" + object.name();
        }
    }

    /**
     * With per-gateway egress ownership: the part of a GlobalEgressIP one active gateway SNATs to.
     * Each slice has the object's {@code numberOfIPs}, from the same pool as everything else.
     */
    record EgressSlice(GlobalEgressIP object, String gateway, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public EgressSlice {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(object, gateway);
        }

        public static String requesterName(GlobalEgressIP object, String gateway) {
            return Egress.requesterName(object) + " (slice of gateway " + gateway + ")";
        }
    }

    record Ingress(GlobalIngressIP object, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public Ingress {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(object);
        }

        public static String requesterName(GlobalIngressIP object) {
            return "GlobalIngressIP " + object.namespace() + "/" + object.name();
        }
    }

    /**
     * Globalnet 2.0: a gateway's own global IP, its health-check address. Upstream (0.18 on) keeps it
     * in the {@code submariner.io/globalIp} annotation of the gateway's {@code Gateway} object (named
     * after its node): the Globalnet controller on the active gateway gives its own Gateway one
     * ({@code pkg/globalnet/controllers/gateway_controller.go}, {@code allocateIP}), DNATs ICMP to it
     * to its CNI address in {@code SUBMARINER-GN-INGRESS}, and the gateway copies it into its
     * Endpoint's {@code healthCheckIP}, which remote gateways' health checks ping
     * ({@code pkg/controllers/datastoresyncer/gateway_handler.go}). A Gateway keeps it whatever its
     * HA status, until the object is deleted.
     */
    record Gateway(Node node, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public Gateway {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(node);
        }

        /** As upstream's object is named: kind {@code Gateway}, named after the gateway's node. */
        public static String requesterName(Node node) {
            return "Gateway " + node.name();
        }
    }

    /** Legacy: an exported service's global IP; named by its export, which may name a service that does not exist. */
    record LegacyService(ServiceExport service, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public LegacyService {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(service);
        }

        public static String requesterName(ServiceExport service) {
            return "service " + service;
        }
    }

    /** Legacy: a pod's global IP, its egress source for every cross-cluster flow. */
    record LegacyPod(Pod pod, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public LegacyPod {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(pod);
        }

        public static String requesterName(Pod pod) {
            return "pod " + pod.qualifiedName();
        }
    }

    /** Legacy: a node's global IP, the egress source of the node and its host-network pods. */
    record LegacyNode(Node node, List<Ipv4Address> addresses, AllocationCondition condition)
            implements GlobalIpAllocation {
        public LegacyNode {
            addresses = List.copyOf(addresses);
        }

        @Override
        public String requester() {
            return requesterName(node);
        }

        public static String requesterName(Node node) {
            return "node " + node.name();
        }
    }
}
