package io.periscope.benchmarks.simulator;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.reachability.MatrixProgress;
import io.periscope.simulator.reachability.ReachabilityMatrix;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What {@code periscope check} computes, in one JVM (run it with {@code scripts/benchmark-check}, which
 * pins one core and runs an anchor commit's simulator and today's side by side): plan, simulator and
 * reachability matrix of the generated 10-cluster set of 10,000 pods and 100 exported services,
 * 1,000,000 pod-to-service flows. With {@code appsPerCluster} 250 each service has 4 backends (the
 * 1M-flow set); with 10 every pod is one of a service's 100 backends and a flow to another cluster
 * has 400 paths (the 400-path set). Each shot is timed on its own (wall clock and the process's CPU
 * time); the totals of the matrix are printed so that the two commits' answers can be compared. It
 * uses only API the anchor commit has too.
 */
public final class CheckBenchmark {

    private CheckBenchmark() {
    }

    /** Arguments: appsPerCluster, shots. */
    public static void main(String[] args) {
        int apps = Integer.parseInt(args[0]);
        int shots = Integer.parseInt(args[1]);
        ClusterSet set = new SyntheticClusterSet(10, 10, 2, 1000, 10, 2, GlobalnetMode.V2, apps).build();
        List<Double> walls = new ArrayList<>();
        List<Double> cpus = new ArrayList<>();
        for (int shot = 1; shot <= shots; shot++) {
            System.gc();
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            ReachabilityMatrix matrix = ReachabilityMatrix.of(new Simulator(Planner.plan(set)), MatrixProgress.NONE);
            double wall = (System.nanoTime() - start) / 1e9;
            double cpu = (processCpuNanos() - cpuStart) / 1e9;
            walls.add(wall);
            cpus.add(cpu);
            long delivered = 0;
            long paths = 0;
            long cells = 0;
            for (List<ReachabilityMatrix.Cell> row : matrix.cells()) {
                for (ReachabilityMatrix.Cell cell : row) {
                    delivered += cell.delivered();
                    paths += cell.paths();
                    cells++;
                }
            }
            System.out.printf(Locale.ROOT, "  shot %d: %.3f s (CPU %.3f s); %,d cells, %,d traced, paths delivered %,d of %,d%n", shot, wall,
                    cpu, cells, matrix.traced(), delivered, paths);
            System.out.printf(Locale.ROOT, "  answer: %d %d %d %d%n", cells, matrix.traced(), delivered, paths);
        }
        Collections.sort(walls);
        Collections.sort(cpus);
        System.out.printf(Locale.ROOT, "  median: %.3f s (CPU %.3f s)%n", walls.get(walls.size() / 2), cpus.get(cpus.size() / 2));
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
