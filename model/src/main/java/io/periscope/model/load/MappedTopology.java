package io.periscope.model.load;

import io.periscope.model.topology.ClusterSet;

import java.util.List;
import java.util.Optional;

/**
 * What {@link TopologyReader} made of a file: the records it could build (none when the file is not
 * even a mapping), where everything was written, what had to be left out, and the mistakes found.
 */
record MappedTopology(Optional<ClusterSet> clusterSet, SourcePositions positions, IncompleteParts incomplete,
                      List<TopologyError> errors) {

    MappedTopology {
        errors = List.copyOf(errors);
    }
}
