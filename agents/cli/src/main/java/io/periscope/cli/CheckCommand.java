package io.periscope.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code periscope check}: validates a topology file and summarizes what it describes. */
@Command(name = "check",
        description = "Validate the topology file and summarize it: per cluster its CIDRs, CNI, gateways (which are active), "
                + "and how many nodes, pods, services and exports it has; then the number of flows.")
public final class CheckCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--json", description = "print the summary as JSON instead of text")
    private boolean json;

    @Option(names = "--fail", paramLabel = "CLUSTER/NODE", converter = NodeReference.Converter.class,
            description = "treat this node as failed (repeatable): a failed gateway hands its traffic to the others")
    private List<NodeReference> failedNodes = List.of();

    @Override
    public Integer call() throws TopologyException, JsonProcessingException {
        ClusterSet clusterSet = topology.load();
        for (NodeReference failed : failedNodes) {
            try {
                failed.requireIn(clusterSet);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--fail " + failed + ": " + e.getMessage());
            }
        }
        TopologySummary summary = TopologySummary.of(clusterSet, Planner.plan(clusterSet).allocations(), failedNodes);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(summary));
        } else {
            out.print(summary.toText());
        }
        out.flush();
        return ExitStatus.OK;
    }
}
