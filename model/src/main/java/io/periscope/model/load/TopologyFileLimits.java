package io.periscope.model.load;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How big a topology file may be, and how much its anchors may expand. Documented in docs/topology.md
 * ("Limits"); the numbers leave room for cluster sets far larger than real ones (a 5,000-node file written
 * with merge keys is a few hundred kilobytes and a few thousand aliases) while refusing files whose reading
 * alone would exhaust memory or never finish: {@code /dev/zero}, a multi-gigabyte file, a "billion laughs"
 * document whose few lines expand to billions of nodes.
 */
public final class TopologyFileLimits {

    /** The largest file read, in bytes: checked before reading, so a huge file is refused at once. */
    public static final long MAX_FILE_BYTES = 16L * 1024 * 1024;
    /** How many aliases ({@code *name}) of mappings or lists one file may use. */
    public static final int MAX_ALIASES = 100_000;
    /** How deeply mappings and lists may nest. */
    public static final int MAX_NESTING_DEPTH = 200;
    /**
     * How many nodes the document may have once every alias is replaced by what it names. Aliases share
     * what they name while the file is parsed, but reading the topology visits each use, so this is what
     * bounds the work a small file full of aliases of aliases can cause.
     */
    public static final long MAX_EXPANDED_NODES = 5_000_000;

    private TopologyFileLimits() {
    }

    static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setProcessComments(false);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_NESTING_DEPTH);
        // Characters never outnumber bytes in UTF-8, so the file size check is the binding one.
        options.setCodePointLimit((int) MAX_FILE_BYTES);
        options.setAllowRecursiveKeys(false);
        return options;
    }

    /** "16 MiB", the way limits are written in messages and docs. */
    static String describeFileLimit() {
        return (MAX_FILE_BYTES / (1024 * 1024)) + " MiB";
    }

    /**
     * When SnakeYAML stopped because one of the limits set in {@link #loaderOptions()} was hit, the problem
     * and fix to report, naming the limit; empty for any other parse failure.
     */
    static Optional<TopologyError> limitHit(String fileName, String yamlMessage) {
        String message = yamlMessage == null ? "" : yamlMessage.toLowerCase(Locale.ROOT);
        if (message.contains("number of aliases")) {
            return Optional.of(new TopologyError(fileName, 0, 0, "",
                    "more than " + MAX_ALIASES + " aliases (*name) of mappings or lists, the limit for one topology file",
                    "write the repeated parts out, or split the cluster set; see \"Limits\" in docs/topology.md"));
        }
        if (message.contains("nesting depth")) {
            return Optional.of(new TopologyError(fileName, 0, 0, "",
                    "mappings and lists nest deeper than " + MAX_NESTING_DEPTH + " levels, the limit for one topology file",
                    "a topology nests a few levels deep; check the indentation and the brackets; see \"Limits\" in docs/topology.md"));
        }
        if (message.contains("exceeds the limit") && message.contains("code points")) {
            return Optional.of(new TopologyError(fileName, 0, 0, "",
                    "the text is longer than " + MAX_FILE_BYTES + " characters (" + describeFileLimit() + "), the limit for one topology file",
                    "split the cluster set, or leave out what the traces do not need; see \"Limits\" in docs/topology.md"));
        }
        return Optional.empty();
    }

    /**
     * Refuses a document whose aliases expand beyond {@link #MAX_EXPANDED_NODES}. Counted over the shared
     * node graph with memoisation, so the count itself costs one visit per distinct node.
     */
    static Optional<TopologyError> expansionTooLarge(String fileName, Node root) {
        long expanded = expandedSize(root, new IdentityHashMap<>());
        if (expanded <= MAX_EXPANDED_NODES) {
            return Optional.empty();
        }
        return Optional.of(new TopologyError(fileName, 0, 0, "",
                "its aliases (*name) expand to more than " + MAX_EXPANDED_NODES + " values, the limit for one topology file"
                        + " (aliases of lists of aliases multiply)",
                "use each anchor for what it names once per place, not in lists of aliases of aliases; see \"Limits\" in docs/topology.md"));
    }

    private static long expandedSize(Node node, Map<Node, Long> known) {
        Long size = known.get(node);
        if (size != null) {
            return size;
        }
        long total = 1;
        if (node instanceof MappingNode mapping) {
            for (NodeTuple tuple : mapping.getValue()) {
                total = cappedSum(total, expandedSize(tuple.getKeyNode(), known));
                total = cappedSum(total, expandedSize(tuple.getValueNode(), known));
            }
        } else if (node instanceof SequenceNode sequence) {
            for (Node each : sequence.getValue()) {
                total = cappedSum(total, expandedSize(each, known));
            }
        }
        known.put(node, total);
        return total;
    }

    /** Sums saturate just above the limit: the exact figure of a bomb does not matter, and it would overflow. */
    private static long cappedSum(long a, long b) {
        return Math.min(a + b, MAX_EXPANDED_NODES + 1);
    }
}
