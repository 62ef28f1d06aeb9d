package io.periscope.model.load;

import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a file may say but hardly means, found after it validated: each finding in the shape of a
 * {@link TopologyError} (file, line, column, path, problem, fix), reported as a warning, never refused.
 */
final class TopologyWarnings {

    private TopologyWarnings() {
    }

    static List<TopologyError> of(ClusterSet set, SourcePositions positions, String file) {
        List<TopologyError> warnings = new ArrayList<>();
        for (int i = 0; i < set.connectivityPolicies().size(); i++) {
            ClusterConnectivityPolicy policy = set.connectivityPolicies().get(i);
            String path = positions.element("connectivityPolicies", i);
            unmatched(set, policy, path, "leftClusterSelector", policy.leftClusterSelector(), positions, file).ifPresent(warnings::add);
            unmatched(set, policy, path, "rightClusterSelector", policy.rightClusterSelector(), positions, file).ifPresent(warnings::add);
        }
        return List.copyOf(warnings);
    }

    /** A selector no cluster's labels satisfy: the policy then connects nothing, which a typo in a label does silently. */
    private static Optional<TopologyError> unmatched(ClusterSet set, ClusterConnectivityPolicy policy, String policyPath, String field,
                                                               LabelSelector selector, SourcePositions positions, String file) {
        if (set.clusters().stream().map(Cluster::labels).anyMatch(selector::matches)) {
            return Optional.empty();
        }
        String path = policyPath + "." + field;
        SourcePosition position = positions.position(positions.contains(path) ? path : policyPath);
        return Optional.of(new TopologyError(file, position.line(), position.column(), path,
                "the " + field + " of connectivity policy '" + policy.name() + "' matches no cluster, so the policy connects nothing",
                "give the clusters it means those labels, or correct the selector"));
    }
}
