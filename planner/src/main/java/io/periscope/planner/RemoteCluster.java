package io.periscope.planner;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Cluster;

import java.util.List;

/**
 * A connected remote cluster as a gateway sees it: the subnets its Endpoints offer and the cable
 * driver (with options) of the pair, from the cluster graph.
 */
record RemoteCluster(Cluster cluster, List<Ipv4Prefix> subnets, CableDriverSpec cable) {

    RemoteCluster {
        subnets = List.copyOf(subnets);
    }
}
