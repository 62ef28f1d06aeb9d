package io.periscope.benchmarks.planner;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.planner.Planner;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The planner's benchmark (run it with {@code scripts/benchmark-plan}, which pins one core and runs
 * it against an anchor commit's planner and today's, side by side). Part 1 plans a 50 x 100-node
 * cluster set with 2,000 pods, 200 exported services and 20 GlobalEgressIPs per cluster (105,000
 * hosts) and reports the median wall-clock time, the median CPU time of the process (garbage
 * collection and compilation included: on a shared machine it moves less than the wall clock) and
 * the peak heap. It uses only API the anchor commit has too. Part 2 measures the
 * scalability claim of seed 002: rules on a gateway for Globalnet 2.0 against the legacy per-pod
 * design, for one cluster of 10,000 pods and 1,000 exported services.
 */
public final class PlanBenchmark {

    private PlanBenchmark() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        ClusterSet large = new SyntheticClusterSet(50, 100, 2, 2000, 200, 20, GlobalnetMode.V2).build();
        System.out.printf("plan: 50 clusters x 100 nodes x 2000 pods x 200 exported services x 20 GlobalEgressIPs, %d runs%n", runs);
        List<Double> seconds = new ArrayList<>();
        List<Double> cpuSeconds = new ArrayList<>();
        long hosts = 0;
        for (int i = 0; i < runs + 1; i++) {
            System.gc();
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            ClusterSetPlan plan = Planner.plan(large);
            double elapsed = (System.nanoTime() - start) / 1e9;
            double cpu = (processCpuNanos() - cpuStart) / 1e9;
            hosts = plan.hosts().size();
            if (i > 0) {
                seconds.add(elapsed);
                cpuSeconds.add(cpu);
            }
            System.out.printf(Locale.ROOT, "  run %d%s: %.3f s (CPU %.3f s)%n", i, i == 0 ? " (warm-up)" : "", elapsed, cpu);
        }
        Collections.sort(seconds);
        Collections.sort(cpuSeconds);
        double median = seconds.get(seconds.size() / 2);
        double cpuMedian = cpuSeconds.get(cpuSeconds.size() / 2);
        System.out.printf(Locale.ROOT, "  hosts planned: %d%n  median: %.3f s (CPU %.3f s; target 1 s: %.2fx of target)%n", hosts, median, cpuMedian,
                median / 1.0);
        System.out.printf(Locale.ROOT, "  peak heap: %.0f MiB (max heap %.0f MiB, target < 512 MiB)%n",
                peakHeapBytes() / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576.0);

        ClusterSet v2 = new SyntheticClusterSet(2, 200, 1, 10_000, 1_000, 0, GlobalnetMode.V2).build();
        ClusterSet legacy = new SyntheticClusterSet(2, 200, 1, 10_000, 1_000, 0, GlobalnetMode.LEGACY).build();
        long v2Rules = submarinerRules(gateway(Planner.plan(v2)));
        long legacyRules = submarinerRules(gateway(Planner.plan(legacy)));
        System.out.printf(Locale.ROOT, "gateway rules, 10,000 pods and 1,000 exported services: Globalnet 2.0 %d, legacy %d (legacy/2.0 = %.1fx)%n",
                v2Rules, legacyRules, (double) legacyRules / v2Rules);
    }

    private static HostPlan gateway(ClusterSetPlan plan) {
        return plan.hosts().values().stream().filter(h -> h.role() == HostPlan.HostRole.GATEWAY).findFirst().orElseThrow();
    }

    /** The rules Globalnet and the agents program on the gateway (kube-proxy's are the same in both designs). */
    static long submarinerRules(HostPlan host) {
        DataplanePlan plan = host.submariner();
        return plan.netfilter().stream().map(NetfilterTable::chains).flatMap(List::stream).mapToLong(c -> c.inOrder().size()).sum();
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long peakHeapBytes() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

}
