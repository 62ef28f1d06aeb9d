package io.periscope.features.backend;

import java.util.EnumSet;
import java.util.Set;

/**
 * The evidence a backend gave for the step running on this thread: every {@link Deployment} method
 * that answers a step records where its answer came from, and the acceptance report takes what the
 * step recorded when it finishes. Cucumber runs a scenario's steps on one thread and hands a
 * plugin the step's events on that thread, which keeps steps of different scenarios apart.
 */
public final class EvidenceLog {

    private static final ThreadLocal<Set<Evidence>> STEP = ThreadLocal.withInitial(() -> EnumSet.noneOf(Evidence.class));

    private EvidenceLog() {
    }

    /** The answer being given on this thread came from {@code evidence}. */
    public static void record(Evidence evidence) {
        STEP.get().add(evidence);
    }

    /** What was recorded on this thread since the last call, which starts the next step's record. */
    public static Set<Evidence> take() {
        Set<Evidence> recorded = EnumSet.copyOf(STEP.get());
        STEP.get().clear();
        return recorded;
    }
}
