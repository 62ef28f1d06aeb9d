package io.periscope.model.topology;


import java.util.List;
import java.util.Optional;

/**
 * A cluster set as the topology file describes it: the clusters joined to one broker, the Globalnet
 * settings, the connectivity and connection policies, and the flows the user wants traced.
 * Cluster order matters: the broker hands out global CIDRs in that order.
 */
public record ClusterSet(
        String name,
        GlobalnetConfig globalnet,
        CableDriver defaultCableDriver,
        List<Cluster> clusters,
        List<ClusterConnectivityPolicy> connectivityPolicies,
        List<ClusterConnectionPolicy> connectionPolicies,
        List<Flow> flows,
        List<CableLink> cables,
        Behaviour behaviour) {

    /** A cluster set that follows the seeds where they and upstream disagree. */
    public ClusterSet(String name, GlobalnetConfig globalnet, CableDriver defaultCableDriver, List<Cluster> clusters,
                      List<ClusterConnectivityPolicy> connectivityPolicies, List<ClusterConnectionPolicy> connectionPolicies,
                      List<Flow> flows, List<CableLink> cables) {
        this(name, globalnet, defaultCableDriver, clusters, connectivityPolicies, connectionPolicies, flows, cables, Behaviour.SEEDS);
    }

    /** A cluster set whose cables are unshaped. */
    public ClusterSet(String name, GlobalnetConfig globalnet, CableDriver defaultCableDriver, List<Cluster> clusters,
                      List<ClusterConnectivityPolicy> connectivityPolicies, List<ClusterConnectionPolicy> connectionPolicies,
                      List<Flow> flows) {
        this(name, globalnet, defaultCableDriver, clusters, connectivityPolicies, connectionPolicies, flows, List.of());
    }

    public ClusterSet {
        cables = List.copyOf(cables);
        clusters = List.copyOf(clusters);
        connectivityPolicies = List.copyOf(connectivityPolicies);
        connectionPolicies = List.copyOf(connectionPolicies);
        flows = List.copyOf(flows);
        java.util.Objects.requireNonNull(behaviour, "behaviour");
    }

    public ClusterSet withBehaviour(Behaviour newBehaviour) {
        return new ClusterSet(name, globalnet, defaultCableDriver, clusters, connectivityPolicies, connectionPolicies, flows, cables, newBehaviour);
    }

    public Optional<Cluster> cluster(String clusterName) {
        return clusters.stream().filter(c -> c.name().equals(clusterName)).findFirst();
    }

    /** The cluster of that name; for callers that hold a name the validator already checked. */
    public Cluster requireCluster(String clusterName) {
        return cluster(clusterName).orElseThrow(() -> new IllegalArgumentException("no cluster named '" + clusterName + "'"));
    }

    /** What the WAN path between these two clusters' gateways does to packets; unshaped when the file says nothing. */
    public LinkProperties cableBetween(String a, String b) {
        return cables.stream().filter(c -> c.joins(a, b)).map(CableLink::properties).findFirst().orElse(LinkProperties.NONE);
    }

    public Optional<Flow> flow(String flowName) {
        return flows.stream().filter(f -> f.name().equals(flowName)).findFirst();
    }

    public ClusterSet withFlows(List<Flow> newFlows) {
        return new ClusterSet(name, globalnet, defaultCableDriver, clusters, connectivityPolicies, connectionPolicies, newFlows, cables, behaviour);
    }

    /**
     * The cluster set after these nodes went down: they and their pods are gone. With a single
     * active gateway the next gateway takes the lease; with multiple active gateways the others
     * carry on. Names that do not exist are ignored.
     */
    public ClusterSet withoutNodes(java.util.Collection<String> failedClusterSlashNode) {
        if (failedClusterSlashNode.isEmpty()) {
            return this;
        }
        List<Cluster> survivors = clusters.stream().map(c -> {
            java.util.function.Predicate<String> failed = node -> failedClusterSlashNode.contains(c.name() + "/" + node);
            return new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes().stream().filter(n -> !failed.test(n.name())).toList(),
                    c.pods().stream().filter(p -> !failed.test(p.node())).toList(), c.services(), c.exports(), c.globalEgressIPs(),
                    c.environment(), c.egressOwnership());
        }).toList();
        return withClusters(survivors);
    }

    public ClusterSet withClusters(List<Cluster> newClusters) {
        return new ClusterSet(name, globalnet, defaultCableDriver, newClusters, connectivityPolicies, connectionPolicies, flows, cables, behaviour);
    }
}
