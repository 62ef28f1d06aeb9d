package io.periscope.features.backend;

import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;

import java.util.List;
import java.util.Optional;

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

    /**
     * Makes {@code set}, a change of the cluster set the last call made real (an export deleted, a
     * node removed), real in the running lab: in place where the lab can take it, so that the agents
     * must remove what the change dropped, else rebuilt. {@link #takeNotes} says which.
     */
    default Deployment change(ClusterSet set) {
        return up(set);
    }

    /**
     * How the lab realised the cluster sets given to {@link #up} since the last call, one line each
     * time it changed a running lab: taken in place ({@code lab apply}) or rebuilt, and why.
     */
    default List<String> takeNotes() {
        return List.of();
    }

    /**
     * Gives the cluster set file {@code yaml} to {@code lab up}, as a user would: its refusal, after
     * checking that it created no namespace and wrote no state; empty when it took the file (what it
     * built is then taken down again).
     */
    Optional<TopologyException> refuse(String yaml);

    /** Removes everything the lab built, and nothing else. */
    void down();

    /** Heals every node a scenario left failed ({@code lab heal}), so that the next scenario meets the lab as built. */
    void healFailures();
}
