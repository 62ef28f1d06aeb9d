package io.periscope.visualizer.session;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Node;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;

import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A cluster set as the file describes it, after some nodes failed ({@code trace --fail}'s
 * semantics: they and their pods are gone, the other gateways take over), planned and ready to trace
 * every multipath branch.
 */
public record Scenario(ClusterSet healthy, List<String> failed, ClusterSetPlan plan, Simulator simulator) {

    /** What tracing one flow gave: its trace, or why it could not be traced (an unknown name, say). */
    public sealed interface Outcome {
        Flow flow();
    }

    public record Traced(Flow flow, FlowTrace trace) implements Outcome {
    }

    public record Untraceable(Flow flow, String reason) implements Outcome {
    }

    /** @throws IllegalArgumentException when a failed node is not {@code cluster/node} of the file */
    public static Scenario of(ClusterSet healthy, Collection<String> failed) {
        for (String name : failed) {
            requireNode(healthy, name);
        }
        List<String> names = failed.stream().distinct().sorted().toList();
        ClusterSetPlan plan = Planner.planWithout(healthy, names);
        // Built on every save and for every what-if, and traced for a few flows: each host is compiled
        // when a trace first reaches it, not all of them here.
        return new Scenario(healthy, names, plan, Simulator.compilingOnFirstUse(plan, MultipathMode.ALL_BRANCHES));
    }

    public Outcome trace(Flow flow) {
        try {
            return new Traced(flow, simulator.trace(flow));
        } catch (FlowResolutionException e) {
            return new Untraceable(flow, e.getMessage());
        }
    }

    public List<Outcome> trace(List<Flow> flows) {
        return flows.stream().map(this::trace).toList();
    }

    private static void requireNode(ClusterSet set, String name) {
        int slash = name.indexOf('/');
        if (slash <= 0 || slash != name.lastIndexOf('/')) {
            throw new IllegalArgumentException("'" + name + "' is not CLUSTER/NODE, for example "
                    + set.clusters().getFirst().name() + "/" + set.clusters().getFirst().nodes().getFirst().name());
        }
        String clusterName = name.substring(0, slash);
        Cluster cluster = set.cluster(clusterName).orElseThrow(() -> new IllegalArgumentException("'" + name
                + "': there is no cluster " + clusterName + "; the clusters are "
                + set.clusters().stream().map(Cluster::name).collect(Collectors.joining(", "))));
        String nodeName = name.substring(slash + 1);
        if (cluster.node(nodeName).isEmpty()) {
            throw new IllegalArgumentException("'" + name + "': cluster " + clusterName + " has no node " + nodeName
                    + "; its nodes are " + cluster.nodes().stream().map(Node::name).collect(Collectors.joining(", ")));
        }
    }
}
