package io.periscope.simulator.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** Heap figures for the benchmarks' own reports: what stays after a collection, and the peak. */
final class HeapUse {

    private static final double MIB = 1024.0 * 1024.0;

    private HeapUse() {
    }

    /** Heap in use once garbage is collected: what the program really holds. */
    static double retainedMiB() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / MIB;
    }

    /**
     * The peak use of the heap's long-lived pools (old or tenured generation) since the last
     * {@link #resetPeak}: young collections leave there only what stays reachable, so this is what a
     * computation held at its busiest plus garbage that got old before a full collection.
     */
    static double tenuredPeakMiB() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            String name = pool.getName();
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null && !name.contains("Eden") && !name.contains("Survivor")) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak / MIB;
    }

    static void resetPeak() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    static double maxMiB() {
        return Runtime.getRuntime().maxMemory() / MIB;
    }
}
