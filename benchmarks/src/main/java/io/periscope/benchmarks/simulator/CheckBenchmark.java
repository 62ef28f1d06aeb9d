package io.periscope.benchmarks.simulator;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.reachability.MatrixProgress;
import io.periscope.simulator.reachability.ReachabilityMatrix;

import java.lang.management.GarbageCollectorMXBean;
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
 * time), with the bytes its threads allocated and the collections it took (on one core the collector's
 * time is the walk's: each young collection copies what is still alive); the totals of the matrix are
 * printed so that the two commits' answers can be compared. It uses only API the anchor commit has too.
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
        List<Long> allocations = new ArrayList<>();
        for (int shot = 1; shot <= shots; shot++) {
            System.gc();
            long cpuStart = processCpuNanos();
            long allocatedBefore = allocatedBytes();
            long collectionsBefore = collections();
            long collectingBefore = collectingMillis();
            long start = System.nanoTime();
            ReachabilityMatrix matrix = ReachabilityMatrix.of(new Simulator(Planner.plan(set)), MatrixProgress.NONE);
            double wall = (System.nanoTime() - start) / 1e9;
            double cpu = (processCpuNanos() - cpuStart) / 1e9;
            long allocated = allocatedBytes() - allocatedBefore;
            walls.add(wall);
            cpus.add(cpu);
            allocations.add(allocated);
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
            System.out.printf(Locale.ROOT, "  shot %d: %.3f s (CPU %.3f s); %,d cells, %,d traced, paths delivered %,d of %,d;"
                            + " allocated %,d MB, %d collections (%.3f s)%n", shot, wall, cpu, cells, matrix.traced(), delivered, paths,
                    allocated >> 20, collections() - collectionsBefore, (collectingMillis() - collectingBefore) / 1e3);
            System.out.printf(Locale.ROOT, "  answer: %d %d %d %d%n", cells, matrix.traced(), delivered, paths);
        }
        Collections.sort(walls);
        Collections.sort(cpus);
        Collections.sort(allocations);
        // The fields before "allocated" are read by scripts/benchmark-check by position.
        System.out.printf(Locale.ROOT, "  median: %.3f s (CPU %.3f s) allocated %d MB%n", walls.get(walls.size() / 2), cpus.get(cpus.size() / 2),
                allocations.get(allocations.size() / 2) >> 20);
    }

    /** What every thread of the JVM has allocated on the heap so far. */
    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
    }

    private static long collections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static long collectingMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
