package io.periscope.lab.lease;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The gateway leases of a lab: one per cluster with a single active gateway and more than one
 * gateway node (with one gateway there is nobody to hand over to; with multiple active gateways every
 * gateway is active and health checking moves the traffic), each a {@link LabLeaseStore} file in
 * {@code leases/} of the lab's directory.
 *
 * <p>The model makes the first gateway of a cluster's node list its active one. The lab plans with
 * each lease's holder moved to the front, as the Kubernetes model builder does with the holder of a
 * Lease; every other node keeps its place. A lease that names no holder (released, or not yet
 * created) leaves the file's order, so before any election the file's first gateway is active, as
 * {@code lab up} built it.
 */
public final class LabLeases {

    static final String DIRECTORY = "leases";

    private LabLeases() {
    }

    /** The clusters whose gateways elect their active one, in file order. */
    public static List<Cluster> electing(ClusterSet set) {
        return set.clusters().stream().filter(c -> !c.multiActiveGateways() && c.gateways().size() > 1).toList();
    }

    public static Path file(Path labDirectory, String cluster) {
        return labDirectory.resolve(DIRECTORY).resolve(cluster + ".json");
    }

    /** Each electing cluster's holder as the lease files say now; clusters whose lease names nobody are left out. */
    public static Map<String, String> holders(Path labDirectory, ClusterSet set) {
        Map<String, String> holders = new TreeMap<>();
        for (Cluster cluster : electing(set)) {
            LabLeaseStore.reader(file(labDirectory, cluster.name())).read()
                    .map(v -> v.record().holder()).filter(h -> !h.isEmpty())
                    .ifPresent(holder -> holders.put(cluster.name(), holder));
        }
        return holders;
    }

    /** The cluster set with each named holder first among its cluster's nodes (a holder that is no gateway of its cluster is ignored). */
    public static ClusterSet withHolders(ClusterSet set, Map<String, String> holders) {
        if (holders.isEmpty()) {
            return set;
        }
        List<Cluster> clusters = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            Optional<String> holder = Optional.ofNullable(holders.get(cluster.name()))
                    .filter(h -> cluster.gateways().stream().anyMatch(g -> g.name().equals(h)));
            if (holder.isEmpty()) {
                clusters.add(cluster);
                continue;
            }
            List<Node> nodes = new ArrayList<>(cluster.nodes());
            // Stable: only the holder moves.
            nodes.sort(Comparator.comparing(n -> !n.name().equals(holder.get())));
            clusters.add(new Cluster(cluster.name(), cluster.labels(), cluster.podCidrs(), cluster.serviceCidrs(), cluster.globalCidr(),
                    cluster.cni(), cluster.multiActiveGateways(), cluster.clusterEgressIPs(), cluster.loadBalancing(), nodes, cluster.pods(),
                    cluster.services(), cluster.exports(), cluster.globalEgressIPs(), cluster.environment(), cluster.egressOwnership()));
        }
        return set.withClusters(clusters);
    }
}
