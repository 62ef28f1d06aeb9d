package io.periscope.features.backend;

import io.periscope.model.topology.ClusterSet;

/**
 * What the acceptance suite needs from the lab (lab): build a cluster set as network
 * namespaces programmed by Periscope's agents, observe it, and take it down. The lab module cannot
 * depend on this module, so an adapter over the lab's API implements this interface and registers
 * itself in {@code META-INF/services/io.periscope.features.backend.LabDriver}; {@link LabBackend}
 * finds it with {@link java.util.ServiceLoader}.
 *
 * <p>The adapter's {@link Deployment#trace} answers with the hops its probes observed, in the
 * simulator's trace records: addresses before and after every hop, and for each translation the rule
 * that did it (the rule's counters or a netfilter trace tell which one matched).
 */
public interface LabDriver {

    /**
     * Makes {@code set} real, replacing (or reconciling in place) whatever the previous call built,
     * and returns once every node has converged.
     */
    Deployment up(ClusterSet set);

    /** Removes everything the lab built, and nothing else. */
    void down();

    /** Heals every node a scenario left failed ({@code lab heal}), so that the next scenario meets the lab as built. */
    void healFailures();
}
