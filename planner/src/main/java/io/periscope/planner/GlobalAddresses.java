package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.List;
import java.util.Optional;

/**
 * The Globalnet addresses the planner needs, whatever allocated them: the IPAM of a topology file,
 * or the status of live objects on a real cluster. Empty answers mean "nothing allocated", and the
 * planner then programs nothing for that object, as upstream does for a failed allocation.
 */
public interface GlobalAddresses {

    Optional<Ipv4Prefix> globalCidr(String cluster);

    /** The cluster's egress addresses; with multiple active gateways those of {@code gateway}. */
    List<Ipv4Address> clusterEgress(String cluster, Optional<String> gateway);

    /** A GlobalEgressIP's addresses (with per-gateway egress ownership: every slice's). */
    List<Ipv4Address> egress(String cluster, String namespace, String name);

    /**
     * Under per-gateway egress ownership, the addresses {@code gateway} SNATs a GlobalEgressIP's pods
     * to: its slice, empty when it has none (an answer that knows no slices gives every address).
     */
    default List<Ipv4Address> egress(String cluster, String namespace, String name, String gateway) {
        return egress(cluster, namespace, name);
    }

    /** The GlobalIngressIP of an exported ClusterIP service. */
    Optional<Ipv4Address> serviceIngress(String cluster, String namespace, String service);

    /** The GlobalIngressIP of a pod of an exported headless service. */
    Optional<Ipv4Address> headlessPodIngress(String cluster, String namespace, String pod);

    /**
     * Globalnet 2.0: an active gateway's own global IP (upstream's {@code submariner.io/globalIp}
     * annotation of the gateway's Gateway object), which remote health checks ping and the gateway
     * DNATs to its CNI address. Empty when none was allocated: the gateway then programs no such rule.
     */
    default Optional<Ipv4Address> gatewayGlobalIp(String cluster, String node) {
        return Optional.empty();
    }

    /** Legacy Globalnet (seed 000): the pod's own global IP. */
    Optional<Ipv4Address> legacyPod(String cluster, String namespace, String pod);

    /** Legacy Globalnet (seed 000): the node's own global IP, for host-network traffic. */
    default Optional<Ipv4Address> legacyNode(String cluster, String node) {
        return Optional.empty();
    }

    GlobalAddresses NONE = new GlobalAddresses() {
        @Override
        public Optional<Ipv4Prefix> globalCidr(String cluster) {
            return Optional.empty();
        }

        @Override
        public List<Ipv4Address> clusterEgress(String cluster, Optional<String> gateway) {
            return List.of();
        }

        @Override
        public List<Ipv4Address> egress(String cluster, String namespace, String name) {
            return List.of();
        }

        @Override
        public Optional<Ipv4Address> serviceIngress(String cluster, String namespace, String service) {
            return Optional.empty();
        }

        @Override
        public Optional<Ipv4Address> headlessPodIngress(String cluster, String namespace, String pod) {
            return Optional.empty();
        }

        @Override
        public Optional<Ipv4Address> legacyPod(String cluster, String namespace, String pod) {
            return Optional.empty();
        }
    };
}
