package io.periscope.features.backend;

import io.periscope.model.topology.ClusterSet;

/**
 * Where the acceptance scenarios run: the simulator (always) or the lab (real namespaces and packets,
 * as root). The scenarios' text is the same for both; only this choice differs between the suites.
 */
public sealed interface Backend permits SimulatorBackend, LabBackend {

    /** {@code simulator} or {@code lab}, as the reports name the backend. */
    String name();

    /**
     * Makes {@code set} real on this backend, or reuses what is already there when it is the same
     * cluster set: a scenario that changes the set (a deleted export, a failed node) deploys the changed
     * set, which a level-driven backend reconciles in place.
     */
    Deployment deploy(ClusterSet set);
}
