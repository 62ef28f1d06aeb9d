package io.periscope.benchmarks.model;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Reading and validating one topology file, as every command does first ({@code TopologyLoader.load}),
 * in a JVM of its own (run it with {@code scripts/benchmark-load}, which runs an anchor commit's loader
 * and today's in turn): the first load, which a command pays, in a JVM that has compiled nothing yet, and
 * the median of the loads after it, once the JIT has compiled the loader. What was read is printed so
 * that the two commits' answers can be compared. It uses only API the anchor commit has too.
 */
public final class TopologyLoadBenchmark {

    private TopologyLoadBenchmark() {
    }

    /** Arguments: the topology file, how many loads (the first included). */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int loads = Integer.parseInt(args[1]);
        List<Double> later = new ArrayList<>();
        double first = 0;
        ClusterSet set = null;
        for (int load = 1; load <= loads; load++) {
            long start = System.nanoTime();
            set = TopologyLoader.load(file);
            double millis = (System.nanoTime() - start) / 1e6;
            if (load == 1) {
                first = millis;
            } else {
                later.add(millis);
            }
        }
        Collections.sort(later);
        int pods = set.clusters().stream().mapToInt(c -> c.pods().size()).sum();
        int nodes = set.clusters().stream().map(Cluster::nodes).mapToInt(List::size).sum();
        System.out.printf(Locale.ROOT, "  first load: %.0f ms; later loads, median: %.0f ms (%d loads)%n", first,
                later.isEmpty() ? 0 : later.get(later.size() / 2), loads);
        System.out.printf(Locale.ROOT, "  answer: %d clusters, %d nodes, %d pods, %d flows%n", set.clusters().size(), nodes, pods,
                set.flows().size());
    }
}
