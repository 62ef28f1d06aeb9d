package io.periscope.features.kubernetes;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Waits until every node's kernel agrees with the plan, reading one node at a time while the agents
 * work. Reading a node back is a dozen programs in its namespace (iptables-save of each table, ip,
 * ipset); reading all of them every quarter second, as the harness did, took a third or more of two
 * cores from the very agents being waited for, with 12 to 21 agent JVMs starting. So the wait reads
 * the first node that still differs until it agrees, then the next, and ends with a pass over every
 * node, since an agent may still change a node that agreed earlier; a node that differs then is
 * waited for again.
 *
 * @param <N> a node
 */
final class NodeConvergence<N> {

    private final List<N> nodes;
    private final Function<N, List<String>> differences;
    private final Duration pause;

    /**
     * @param differences what the node's kernel still lacks or holds too much of; empty once it agrees
     * @param pause       between two readings of a node that differs
     */
    NodeConvergence(List<N> nodes, Function<N, List<String>> differences, Duration pause) {
        this.nodes = List.copyOf(nodes);
        this.differences = differences;
        this.pause = pause;
    }

    /** What each node still differs in once all agree (empty) or {@code within} has passed, read in one last pass. */
    Map<N, List<String>> await(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        Deque<N> waiting = new ArrayDeque<>(nodes);
        while (true) {
            while (!waiting.isEmpty()) {
                if (differences.apply(waiting.peekFirst()).isEmpty()) {
                    waiting.removeFirst();
                } else if (System.nanoTime() > deadline) {
                    return everyNode();
                } else {
                    Thread.sleep(pause);
                }
            }
            Map<N, List<String>> left = everyNode();
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            waiting.addAll(left.keySet());
        }
    }

    private Map<N, List<String>> everyNode() {
        Map<N, List<String>> left = new LinkedHashMap<>();
        for (N node : nodes) {
            List<String> found = differences.apply(node);
            if (!found.isEmpty()) {
                left.put(node, found);
            }
        }
        return left;
    }
}
