package io.periscope.model.policy;

import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;
import org.jgrapht.Graph;
import org.jgrapht.graph.SimpleGraph;

import java.util.List;
import java.util.Optional;

/**
 * Which clusters have a tunnel between them and with which cable driver (seed 001). Two clusters
 * connect when there is no ClusterConnectivityPolicy at all (full mesh), or when some policy's left
 * selector matches one and its right selector the other, either way round. The cable driver of a
 * connected pair is that of the first ClusterConnectionPolicy matching the pair (either way round),
 * else the cluster set's default.
 */
public final class ClusterGraph {

    private final Graph<String, Connection> graph;

    private ClusterGraph(Graph<String, Connection> graph) {
        this.graph = graph;
    }

    /** A tunnel between two clusters, with the cable driver (and options) that carries it. */
    public record Connection(String left, String right, CableDriverSpec cableDriver, Optional<String> connectivityPolicy,
                             Optional<Integer> connectionPolicyIndex) {
    }

    public static ClusterGraph of(ClusterSet set) {
        Graph<String, Connection> graph = new SimpleGraph<>(Connection.class);
        set.clusters().forEach(c -> graph.addVertex(c.name()));
        List<Cluster> clusters = set.clusters();
        for (int i = 0; i < clusters.size(); i++) {
            for (int j = i + 1; j < clusters.size(); j++) {
                Cluster a = clusters.get(i);
                Cluster b = clusters.get(j);
                Optional<String> allowedBy = allowingPolicy(set, a, b);
                if (set.connectivityPolicies().isEmpty() || allowedBy.isPresent()) {
                    int index = connectionPolicyIndex(set, a, b);
                    CableDriverSpec driver = index >= 0 ? set.connectionPolicies().get(index).cableDriver()
                            : CableDriverSpec.of(set.defaultCableDriver());
                    graph.addEdge(a.name(), b.name(), new Connection(a.name(), b.name(), driver, allowedBy,
                            index >= 0 ? Optional.of(index) : Optional.empty()));
                }
            }
        }
        return new ClusterGraph(graph);
    }

    private static Optional<String> allowingPolicy(ClusterSet set, Cluster a, Cluster b) {
        return set.connectivityPolicies().stream()
                .filter(p -> matchesPair(p.leftClusterSelector(), p.rightClusterSelector(), a, b))
                .map(ClusterConnectivityPolicy::name)
                .findFirst();
    }

    private static int connectionPolicyIndex(ClusterSet set, Cluster a, Cluster b) {
        List<ClusterConnectionPolicy> policies = set.connectionPolicies();
        for (int i = 0; i < policies.size(); i++) {
            if (matchesPair(policies.get(i).leftClusterSelector(), policies.get(i).rightClusterSelector(), a, b)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean matchesPair(LabelSelector left, LabelSelector right, Cluster a, Cluster b) {
        return left.matches(a.labels()) && right.matches(b.labels()) || left.matches(b.labels()) && right.matches(a.labels());
    }

    public boolean connected(String a, String b) {
        return !a.equals(b) && graph.containsEdge(a, b);
    }

    public Optional<Connection> connection(String a, String b) {
        return Optional.ofNullable(graph.getEdge(a, b));
    }

    /** The clusters {@code cluster} has a tunnel to, in cluster-set order. */
    public List<String> peersOf(String cluster) {
        return graph.vertexSet().stream().filter(other -> connected(cluster, other)).toList();
    }

    public List<Connection> connections() {
        return List.copyOf(graph.edgeSet());
    }
}
