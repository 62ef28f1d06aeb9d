package io.periscope.kubernetes.modelbuilder;

import io.periscope.model.topology.ClusterSet;

import java.util.List;

/**
 * The model built from live clusters: the cluster set the topology file would describe, the
 * Globalnet addresses their objects' status holds, and what had to be left out.
 */
public record LiveModel(ClusterSet clusterSet, StatusGlobalAddresses addresses, List<ModelProblem> problems) {

    public LiveModel {
        problems = List.copyOf(problems);
    }
}
