package io.periscope.planner;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;

import java.util.ArrayList;
import java.util.List;

/**
 * What a cluster offers the others through its gateways (its Endpoint's subnets): its service and
 * pod CIDRs, or with Globalnet only its global CIDR (the overlapping CIDRs are never routed between
 * clusters).
 */
final class RemoteSubnets {

    private RemoteSubnets() {
    }

    static List<Ipv4Prefix> of(ClusterSet set, Cluster cluster, GlobalAddresses global) {
        if (set.globalnet().enabled()) {
            return global.globalCidr(cluster.name()).map(List::of).orElse(List.of());
        }
        // Upstream's order (GetLocalSpec): service CIDRs first, then pod CIDRs. Every rule written per
        // remote subnet follows it, e.g. the nat ACCEPTs of SUBMARINER-POSTROUTING.
        List<Ipv4Prefix> subnets = new ArrayList<>(cluster.serviceCidrs());
        subnets.addAll(cluster.podCidrs());
        return subnets;
    }

    /** The local CIDRs whose traffic leaves through this cluster's gateways (the SNAT sources). */
    static List<Ipv4Prefix> local(Cluster cluster) {
        return cluster.podCidrs();
    }
}
