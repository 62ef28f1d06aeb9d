package io.periscope.simulator.reachability;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Whether the JIT compiler has, for a while, left the processors to the program: the time it compiled
 * (as the JVM accounts it, summed over its threads) grew by less than {@link #BUSY_SHARE} of the wall
 * clock over the last {@link #WINDOW_NANOS} or more. A walk that starts a second thread while the
 * compiler still works on every hot method takes a core from it, and both then run the slower code
 * for longer. A JVM that does not account compilation time is idle at once.
 */
final class CompilerWatch {

    /** At least this long between two readings that decide. */
    static final long WINDOW_NANOS = 250_000_000L;
    /** The compiler's share of one processor below which it counts as idle. */
    static final double BUSY_SHARE = 0.2;

    private final CompilationMXBean compiler;
    private long windowStart;
    private long compiledAtStart;

    private CompilerWatch(CompilationMXBean compiler) {
        this.compiler = compiler;
        this.windowStart = System.nanoTime();
        this.compiledAtStart = compiler == null ? 0 : compiler.getTotalCompilationTime();
    }

    /** A watch from now on. */
    static CompilerWatch start() {
        CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        return new CompilerWatch(bean != null && bean.isCompilationTimeMonitoringSupported() ? bean : null);
    }

    /** True once the compiler was idle over a whole window; a window in which it was busy starts a new one. */
    boolean idle() {
        if (compiler == null) {
            return true;
        }
        long now = System.nanoTime();
        long elapsed = now - windowStart;
        if (elapsed < WINDOW_NANOS) {
            return false;
        }
        long compiled = compiler.getTotalCompilationTime();
        boolean idle = (compiled - compiledAtStart) * 1_000_000.0 < BUSY_SHARE * elapsed;
        windowStart = now;
        compiledAtStart = compiled;
        return idle;
    }
}
