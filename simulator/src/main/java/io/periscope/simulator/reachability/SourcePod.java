package io.periscope.simulator.reachability;

import io.periscope.model.topology.Pod;
import io.periscope.plan.HostId;

/** A row of the matrix: a pod with its own network namespace, and the host that is. */
record SourcePod(int row, String cluster, Pod pod, HostId host) {

    /** {@code cluster/namespace/pod}, the row's label. */
    String label() {
        return cluster + "/" + pod.namespace() + "/" + pod.name();
    }
}
