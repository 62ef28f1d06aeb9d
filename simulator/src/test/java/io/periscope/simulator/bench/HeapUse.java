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

    /** The heap's peak use since the last {@link #resetPeak}, garbage included. */
    static double peakMiB() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
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
