package io.periscope.model.load;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

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
     * Refuses a document whose aliases make it endless or too large once expanded: an anchor whose own
     * content uses it ({@code clusters: &c [*c]}), which every reader of the nodes would follow forever,
     * and aliases that expand beyond {@link #MAX_EXPANDED_NODES} ("billion laughs"). One depth-first walk
     * over the shared node graph with memoisation, so the check costs one visit per distinct node, and
     * with its own stack, so a deep chain of aliases cannot overflow the thread's. Only an anchored node
     * can be reached twice (an alias is the node its anchor names; merge keys are left to the reader, not
     * flattened while composing), so only anchored nodes are remembered and watched for re-entry: the
     * rest, nearly every node of a real file, cost no map lookups.
     */
    static Optional<TopologyError> aliasesTooLarge(String fileName, Node root) {
        Map<Node, Long> sizes = new IdentityHashMap<>();
        Set<Node> open = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Visit> stack = new ArrayDeque<>();
        stack.push(new Visit(root, children(root)));
        open.add(root);
        while (!stack.isEmpty()) {
            Visit visit = stack.peek();
            if (visit.children().hasNext()) {
                Node child = visit.children().next();
                if (child.getAnchor() == null) {
                    if (child instanceof ScalarNode) {
                        visit.add(1);
                    } else {
                        stack.push(new Visit(child, children(child)));
                    }
                    continue;
                }
                Long known = sizes.get(child);
                if (known != null) {
                    visit.add(known);
                } else if (open.contains(child)) {
                    return Optional.of(selfReference(fileName, child));
                } else {
                    open.add(child);
                    stack.push(new Visit(child, children(child)));
                }
                continue;
            }
            stack.pop();
            boolean anchored = visit.node().getAnchor() != null;
            if (anchored) {
                open.remove(visit.node());
            }
            if (visit.total() > MAX_EXPANDED_NODES) {
                // The first node to pass the limit is the smallest that does: the anchor to rewrite.
                return Optional.of(expansion(fileName, visit.node()));
            }
            if (anchored) {
                sizes.put(visit.node(), visit.total());
            }
            if (!stack.isEmpty()) {
                stack.peek().add(visit.total());
            }
        }
        return Optional.empty();
    }

    /** A node being expanded: the children still to visit and the size of those visited. */
    private static final class Visit {
        private final Node node;
        private final Iterator<Node> children;
        private long total = 1;

        Visit(Node node, Iterator<Node> children) {
            this.node = node;
            this.children = children;
        }

        Node node() {
            return node;
        }

        Iterator<Node> children() {
            return children;
        }

        long total() {
            return total;
        }

        void add(long size) {
            total = cappedSum(total, size);
        }
    }

    private static Iterator<Node> children(Node node) {
        if (node instanceof MappingNode mapping) {
            List<NodeTuple> tuples = mapping.getValue();
            return new Iterator<>() {
                private int next;    // key of tuple next / 2 when even, its value when odd

                @Override
                public boolean hasNext() {
                    return next < 2 * tuples.size();
                }

                @Override
                public Node next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    NodeTuple tuple = tuples.get(next / 2);
                    return next++ % 2 == 0 ? tuple.getKeyNode() : tuple.getValueNode();
                }
            };
        }
        if (node instanceof SequenceNode sequence) {
            return sequence.getValue().iterator();
        }
        return Collections.emptyIterator();
    }

    private static TopologyError selfReference(String fileName, Node anchored) {
        String anchor = anchored.getAnchor() == null ? "an anchor" : "anchor &" + anchored.getAnchor();
        String alias = anchored.getAnchor() == null ? "an alias of it" : "*" + anchored.getAnchor();
        return at(fileName, anchored, anchor + " is used inside itself (" + alias + " within what it names), so the document never ends",
                "an alias may only repeat something written elsewhere; write the inner part out instead of " + alias);
    }

    private static TopologyError expansion(String fileName, Node node) {
        String what = node.getAnchor() == null ? "its aliases (*name)" : "the aliases in anchor &" + node.getAnchor();
        return at(fileName, node, what + " expand to more than " + MAX_EXPANDED_NODES + " values, the limit for one topology file"
                        + " (aliases of lists of aliases multiply)",
                "use each anchor for what it names once per place, not in lists of aliases of aliases; see \"Limits\" in docs/topology.md");
    }

    private static TopologyError at(String fileName, Node node, String problem, String fix) {
        Mark mark = node.getStartMark();
        int line = mark == null ? 0 : mark.getLine() + 1;
        int column = mark == null ? 0 : mark.getColumn() + 1;
        return new TopologyError(fileName, line, column, "", problem, fix);
    }

    /** Sums saturate just above the limit: the exact figure of a bomb does not matter, and it would overflow. */
    private static long cappedSum(long a, long b) {
        return Math.min(a + b, MAX_EXPANDED_NODES + 1);
    }
}
