package io.periscope.visualizer.session;

import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.SourcePositions;
import io.periscope.model.load.TopologyError;
import io.periscope.model.load.TopologyValidator;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A flow typed by a person rather than written in the file ({@code trace --from --to}, the page's
 * flow box), checked by the same rules as the file's flows.
 */
public final class AdHocFlow {

    private AdHocFlow() {
    }

    /** @throws IllegalArgumentException naming which of {@code from}, {@code to} is wrong, how, and what would do */
    public static Flow parse(ClusterSet set, String from, String to, Protocol protocol) {
        FlowSource source;
        FlowTarget target;
        try {
            source = FlowEndpointSyntax.parseSource(from);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--from " + from + ": " + e.getMessage(), e);
        }
        try {
            target = FlowEndpointSyntax.parseTarget(to);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--to " + to + ": " + e.getMessage(), e);
        }
        Flow flow = new Flow("ad-hoc", source, target, protocol, Optional.empty());
        List<TopologyError> errors = TopologyValidator.validate(set.withFlows(List.of(flow)), SourcePositions.NONE, "command line");
        List<TopologyError> flowErrors = errors.stream().filter(e -> e.path().startsWith("flows")).toList();
        if (!flowErrors.isEmpty()) {
            throw new IllegalArgumentException("--from " + from + " --to " + to + ": "
                    + flowErrors.stream().map(e -> e.problem() + (e.fix().isEmpty() ? "" : " (" + e.fix() + ")"))
                    .collect(Collectors.joining("; ")));
        }
        return flow;
    }
}
