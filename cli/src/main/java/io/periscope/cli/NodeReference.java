package io.periscope.cli;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A node named on the command line as {@code CLUSTER/NODE}, for {@code --fail} and {@code --node}. */
public record NodeReference(String cluster, String node) {

    public static NodeReference parse(String text) {
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1 || text.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("'" + text + "' is not CLUSTER/NODE (for example cluster1/gw-1)");
        }
        return new NodeReference(text.substring(0, slash), text.substring(slash + 1));
    }

    /** The node this names in the cluster set, if there is one. */
    public Optional<Node> resolveIn(ClusterSet clusterSet) {
        return clusterSet.cluster(cluster).flatMap(c -> c.node(node));
    }

    /**
     * The node this names; when there is none, an {@link IllegalArgumentException} whose message
     * lists what the file does have, since a typo is the usual cause.
     */
    public Node requireIn(ClusterSet clusterSet) {
        Cluster found = clusterSet.cluster(cluster).orElseThrow(() -> new IllegalArgumentException(
                "the file has no cluster '" + cluster + "' (clusters: " + names(clusterSet.clusters().stream().map(Cluster::name)) + ")"));
        return found.node(node).orElseThrow(() -> new IllegalArgumentException(
                "cluster " + cluster + " has no node '" + node + "' (nodes: " + names(found.nodes().stream().map(Node::name)) + ")"));
    }

    private static String names(Stream<String> names) {
        return names.collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return cluster + "/" + node;
    }

    /** Lets picocli turn a malformed value into a usage error (exit 2) instead of a crash. */
    public static final class Converter implements ITypeConverter<NodeReference> {
        @Override
        public NodeReference convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
