package io.periscope.cli;

import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.SourcePositions;
import io.periscope.model.load.TopologyError;
import io.periscope.model.load.TopologyValidator;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Which flows a command works on: all of the file's, one named flow, or an ad-hoc one from the command line. */
final class FlowSelection {

    private FlowSelection() {
    }

    static List<Flow> select(CommandLine commandLine, ClusterSet set, String flowName, String from, String to, Protocol protocol) {
        if (flowName != null) {
            return List.of(set.flow(flowName).orElseThrow(() -> new ParameterException(commandLine,
                    "--flow " + flowName + ": the file has no flow of that name"
                            + (set.flows().isEmpty() ? " (it has no flows)" : "; it has: "
                            + set.flows().stream().map(Flow::name).collect(Collectors.joining(", "))))));
        }
        if (from == null) {
            return set.flows();
        }
        FlowSource source;
        FlowTarget target;
        try {
            source = FlowEndpointSyntax.parseSource(from);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, "--from " + from + ": " + e.getMessage());
        }
        try {
            target = FlowEndpointSyntax.parseTarget(to);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, "--to " + to + ": " + e.getMessage());
        }
        Flow flow = new Flow("ad-hoc", source, target, protocol, Optional.empty());
        List<TopologyError> errors = TopologyValidator.validate(set.withFlows(List.of(flow)), SourcePositions.NONE, "command line");
        List<TopologyError> flowErrors = errors.stream().filter(e -> e.path().startsWith("flows")).toList();
        if (!flowErrors.isEmpty()) {
            throw new ParameterException(commandLine, "--from " + from + " --to " + to + ": "
                    + flowErrors.stream().map(e -> e.problem() + (e.fix().isEmpty() ? "" : " (" + e.fix() + ")"))
                    .collect(Collectors.joining("; ")));
        }
        return List.of(flow);
    }
}
