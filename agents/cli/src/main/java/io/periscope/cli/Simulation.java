package io.periscope.cli;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A cluster set planned and ready to trace, optionally after some nodes failed (they and their pods
 * are gone; the remaining gateways take over, as leader election or multiple active gateways would).
 */
record Simulation(CommandLine commandLine, ClusterSet original, Collection<NodeReference> failed, boolean hash,
                  Simulator simulator) {

    static Simulation of(CommandLine commandLine, ClusterSet set, Collection<NodeReference> failed, boolean hash) {
        ClusterSetPlan plan = Planner.plan(survivors(commandLine, set, failed));
        return new Simulation(commandLine, set, List.copyOf(failed), hash,
                new Simulator(plan, hash ? MultipathMode.HASH : MultipathMode.ALL_BRANCHES));
    }

    /** The cluster set after the nodes named by {@code --fail} went down; a name not in the file is a usage error. */
    static ClusterSet survivors(CommandLine commandLine, ClusterSet set, Collection<NodeReference> failed) {
        for (NodeReference node : failed) {
            try {
                node.requireIn(set);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(commandLine, "--fail " + node + ": " + e.getMessage());
            }
        }
        return set.withoutNodes(failed.stream().map(NodeReference::toString).toList());
    }

    Simulation withoutFailures() {
        return failed.isEmpty() ? this : of(commandLine, original, List.of(), hash);
    }

    /** Traces the flows; a flow that cannot be resolved (unknown DNS name, ...) is a usage error. */
    List<FlowTrace> trace(List<Flow> flows) {
        List<FlowTrace> traces = new ArrayList<>();
        for (Flow flow : flows) {
            traces.add(trace(flow));
        }
        return traces;
    }

    FlowTrace trace(Flow flow) {
        try {
            return simulator.trace(flow);
        } catch (FlowResolutionException e) {
            if (failed.stream().anyMatch(n -> e.getMessage().contains(n.cluster()))) {
                throw new ParameterException(commandLine, "flow " + flow.name() + ": " + e.getMessage()
                        + " (it runs on a node named by --fail)");
            }
            throw new ParameterException(commandLine, "flow " + flow.name() + ": " + e.getMessage());
        }
    }
}
