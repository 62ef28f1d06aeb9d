package io.periscope.planner;

import io.periscope.model.globalnet.HeadlessPodOwners;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The egress addresses one active gateway owns, which its Endpoint publishes as {@code allocatedIPs}
 * and every remote gateway routes back to it (seed 004, step 5c, metric 98): its ClusterGlobalEgressIP
 * as seed 004 says; with per-gateway egress ownership also its slice of every GlobalEgressIP and the
 * global IPs of the headless pods it owns. Empty without Globalnet or with one active gateway.
 *
 * <p>While some gateways are {@link DownGateways down}, a live gateway also owns the headless pods
 * that hashing now gives it, and a down one keeps only its ClusterGlobalEgressIP and slices: its
 * pods' addresses are the ones that can move (every gateway SNATs and DNATs them alike), while a
 * slice's connections had their NAT state on the dead gateway alone.
 */
final class OwnedEgress {

    private OwnedEgress() {
    }

    static List<Ipv4Address> of(ClusterSet set, Cluster cluster, Node gateway, GlobalAddresses global, DownGateways down) {
        if (!set.globalnet().enabled() || !cluster.multiActiveGateways()) {
            return List.of();
        }
        List<Ipv4Address> owned = new ArrayList<>(global.clusterEgress(cluster.name(), java.util.Optional.of(gateway.name())));
        if (!cluster.egressPerGateway()) {
            return owned;
        }
        for (GlobalEgressIP egress : cluster.globalEgressIPs()) {
            owned.addAll(global.egress(cluster.name(), egress.namespace(), egress.name(), gateway.name()));
        }
        List<Node> live = down.live(cluster);
        for (Pod pod : headlessBackends(cluster)) {
            if (HeadlessPodOwners.ownerOf(cluster, pod, live).filter(gateway.name()::equals).isPresent()) {
                global.headlessPodIngress(cluster.name(), pod.namespace(), pod.name()).ifPresent(owned::add);
            }
        }
        return List.copyOf(owned);
    }

    /** The pods behind the cluster's exported headless services, each once, in service and pod order. */
    static List<Pod> headlessBackends(Cluster cluster) {
        Set<Pod> pods = new LinkedHashSet<>();
        for (Service service : cluster.services()) {
            if (service.headless() && cluster.isExported(service)) {
                pods.addAll(cluster.endpointsOf(service));
            }
        }
        return List.copyOf(pods);
    }
}
