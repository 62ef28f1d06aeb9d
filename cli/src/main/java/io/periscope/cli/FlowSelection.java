package io.periscope.cli;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.visualizer.session.AdHocFlow;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.List;
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
        try {
            return List.of(AdHocFlow.parse(set, from, to, protocol));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, e.getMessage());
        }
    }
}
