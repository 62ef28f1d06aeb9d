package io.periscope.features.kubernetes;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness's wait for the agents reads the first node that still differs, not every node each
 * time, and ends with a pass over all of them: nodes here agree after a number of their own readings.
 */
class ConvergenceWaitReadsOneNodeAtATime {

    /** Nodes that each differ for their first N readings; one may differ again once, after it agreed. */
    private static final class Nodes {
        final Map<String, Integer> differFor = new HashMap<>();
        final Map<String, Integer> readings = new HashMap<>();
        final List<String> read = new ArrayList<>();
        String regressesOnce;
        int regressAtReading;

        List<String> differences(String node) {
            read.add(node);
            int n = readings.merge(node, 1, Integer::sum);
            if (node.equals(regressesOnce) && n == regressAtReading) {
                return List.of("a rule an agent removed again");
            }
            return n <= differFor.getOrDefault(node, 0) ? List.of("missing rule " + n) : List.of();
        }
    }

    @Test
    void nodesThatAgreeAreNotReadAgainUntilTheLastPass() throws InterruptedException {
        Nodes nodes = new Nodes();
        nodes.differFor.putAll(Map.of("gw-1", 5, "gw-2", 0, "worker-1", 3));
        Map<String, List<String>> left = new NodeConvergence<>(List.of("gw-1", "gw-2", "worker-1"), nodes::differences, Duration.ZERO)
                .await(Duration.ofSeconds(10));

        assertThat(left).isEmpty();
        // Awaited in turn: gw-1 six times (five differ), gw-2 once, worker-1 four times (three differ); then the
        // last pass reads each node once more. Reading all three every time would have read each six times at least.
        assertThat(nodes.readings).containsEntry("gw-1", 7).containsEntry("gw-2", 2).containsEntry("worker-1", 5);
        assertThat(nodes.read.subList(nodes.read.size() - 3, nodes.read.size())).containsExactly("gw-1", "gw-2", "worker-1");
    }

    @Test
    void aNodeThatDiffersAgainInTheLastPassIsAwaitedAgain() throws InterruptedException {
        Nodes nodes = new Nodes();
        nodes.differFor.put("gw-1", 1);
        nodes.regressesOnce = "gw-2";
        nodes.regressAtReading = 2;   // agrees when first read, differs in the last pass
        Map<String, List<String>> left = new NodeConvergence<>(List.of("gw-1", "gw-2"), nodes::differences, Duration.ZERO)
                .await(Duration.ofSeconds(10));

        assertThat(left).isEmpty();
        assertThat(nodes.read).containsExactly("gw-1", "gw-1", "gw-2", "gw-1", "gw-2", "gw-2", "gw-1", "gw-2");
    }

    @Test
    void onTimeEveryNodeIsReadOnceMoreAndWhatDiffersIsReturned() throws InterruptedException {
        Nodes nodes = new Nodes();
        nodes.differFor.putAll(Map.of("gw-1", Integer.MAX_VALUE, "worker-1", Integer.MAX_VALUE));
        Map<String, List<String>> left = new NodeConvergence<>(List.of("gw-1", "gw-2", "worker-1"), nodes::differences, Duration.ofMillis(5))
                .await(Duration.ofMillis(50));

        assertThat(left).containsOnlyKeys("gw-1", "worker-1");
        assertThat(nodes.readings.get("worker-1")).as("worker-1 is read only in the last pass, while gw-1 never agreed").isEqualTo(1);
    }
}
