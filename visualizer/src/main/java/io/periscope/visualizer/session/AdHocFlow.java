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

    /**
     * {@code cluster.service.namespace.svc.clusterset.local:port}: one cluster's export of a service, the
     * name the reachability matrix asks (Lighthouse answers it), which the file's syntax leaves out.
     */
    private static Optional<FlowTarget> clusterSpecific(ClusterSet set, String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0 || !text.substring(0, colon).endsWith(FlowEndpointSyntax.CLUSTERSET_DOMAIN)) {
            return Optional.empty();
        }
        String host = text.substring(0, colon);
        String[] labels = host.substring(0, host.length() - FlowEndpointSyntax.CLUSTERSET_DOMAIN.length()).split("\\.", -1);
        if (labels.length != 3 || set.cluster(labels[0]).isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new FlowTarget.DnsTarget(host, Integer.parseInt(text.substring(colon + 1))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
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
            target = clusterSpecific(set, to).orElseGet(() -> FlowEndpointSyntax.parseTarget(to));
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
