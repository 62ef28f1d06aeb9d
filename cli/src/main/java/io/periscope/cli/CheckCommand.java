package io.periscope.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.periscope.model.globalnet.SharedEgressGap;
import io.periscope.model.policy.SingleGatewayCables;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.simulator.reachability.MatrixProgress;
import io.periscope.simulator.spread.GatewaySpread;
import io.periscope.simulator.reachability.ReachabilityMatrix;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.whatif.FailoverReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code periscope check}: validates the file, summarizes it, runs every flow against its
 * {@code expect}, and prints which clusters connect (and with which cable driver) and which pods
 * reach which exported services. Exits 1 when any expectation fails.
 */
@Command(name = "check",
        description = {"Validate the topology file and compare every flow with its expect; print the cluster connectivity and reachability.",
                "Also prints a summary of the file, the Globalnet objects that got no addresses, and the reachability matrix"
                        + " (source pods by exported services; --no-matrix skips it).",
                "--spread N adds, per flow, how N connections spread over the gateways (counts, expected shares, sampling error, rates).",
                "Exit status 1 when any flow's expectation fails or a Globalnet object got no addresses, 2 for a bad file or bad arguments."})
public final class CheckCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--json", description = "print the report as JSON instead of text")
    private boolean json;

    @Option(names = "--fail", paramLabel = "CLUSTER/NODE", converter = NodeReference.Converter.class,
            description = "check as if this node had failed (repeatable): the remaining gateways take over")
    private List<NodeReference> failedNodes = List.of();

    @Option(names = "--no-matrix", description = "skip the reachability matrix (it traces every pod to every exported service)")
    private boolean noMatrix;

    @Option(names = "--spread", paramLabel = "N", description = "also predict how N connections of each flow (source ports spread evenly"
            + " over 32768-60999) spread over the gateways they leave and enter by, under each cluster's hash policy; 1 to 28232")
    private Integer spread;

    @Override
    public Integer call() throws TopologyException, JsonProcessingException {
        if (spread != null && (spread < 1 || spread > GatewaySpread.MAX_CONNECTIONS)) {
            throw new ParameterException(spec.commandLine(), "--spread " + spread + ": give 1 to " + GatewaySpread.MAX_CONNECTIONS
                    + " connections (one per port of the ephemeral range 32768-60999 at most)");
        }
        TopologyLoader.Loaded loaded = topology.loadWithWarnings();
        ClusterSet clusterSet = loaded.set();
        // Said on standard error, so the text report stays as it is, and listed in the JSON's warnings:
        // what the file says but hardly means (a selector matching no cluster), the gap seed 004 leaves open,
        // and the cables seed 004 rules out with several active gateways.
        List<String> warnings = new ArrayList<>();
        loaded.warnings().forEach(w -> warnings.add(w.format()));
        warnings.addAll(SharedEgressGap.warnings(clusterSet));
        warnings.addAll(SingleGatewayCables.warnings(clusterSet));
        warnings.forEach(w -> spec.commandLine().getErr().println("warning: " + w));
        Simulation simulation = Simulation.of(spec.commandLine(), clusterSet, failedNodes, false);
        TopologySummary summary = TopologySummary.of(clusterSet, simulation.simulator().plan().allocations(), failedNodes);
        Progress progress = Progress.onStandardError(spec.commandLine().getErr());
        List<FlowTrace> traces = simulation.trace(clusterSet.flows());
        CheckReport report = CheckReport.of(clusterSet, traces, simulation.simulator().plan().allocations(), failedNodes,
                noMatrix ? Optional.empty() : Optional.of(matrix(simulation, progress)));
        Optional<SpreadReport> spreadReport = spread == null ? Optional.empty()
                : Optional.of(SpreadReport.of(simulation.simulator(), clusterSet.flows(), spread));
        // What the failure does to each flow, as trace --fail and the what-if view say it.
        Optional<FailoverReport> failover = failedNodes.isEmpty() ? Optional.empty()
                : Optional.of(FailoverReport.compare(simulation.withoutFailures().trace(clusterSet.flows()), traces));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(IndentedJson.write(new CheckReport.Json(summary, report, spreadReport.map(SpreadReport.Json::of).orElse(null), warnings,
                    failover)));
        } else {
            out.print(summary.toText());
            out.println();
            out.print(report.toText());
            failover.ifPresent(f -> {
                out.println();
                out.print(f.toText());
            });
            spreadReport.ifPresent(s -> {
                out.println();
                out.print(s.toText());
            });
        }
        out.flush();
        return report.allExpectationsHold() ? ExitStatus.OK : ExitStatus.EXPECTATION_FAILED;
    }

    private static ReachabilityMatrix matrix(Simulation simulation, Progress progress) {
        ReachabilityMatrix matrix = ReachabilityMatrix.of(simulation.simulator(), new MatrixProgress() {
            @Override
            public void start(long cells) {
                progress.start("reachability", cells);
            }

            @Override
            public void advance(long cellsDone) {
                progress.advance(cellsDone);
            }
        });
        progress.finish();
        return matrix;
    }
}
