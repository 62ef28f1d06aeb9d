package io.periscope.cli;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A cluster set planned and ready to trace, optionally after some nodes failed (they and their pods
 * are gone; the remaining gateways take over, as leader election or multiple active gateways would).
 * Nobody's global IPs change, as a Globalnet controller hands out nothing again when a node fails,
 * except that a gateway that takes the lease gets a health-check global IP of its own
 * ({@link Planner#planWithout}).
 */
record Simulation(CommandLine commandLine, ClusterSet original, Collection<NodeReference> failed, boolean hash,
                  Simulator simulator) {

    static Simulation of(CommandLine commandLine, ClusterSet set, Collection<NodeReference> failed, boolean hash) {
        survivors(commandLine, set, failed);
        ClusterSetPlan plan = Planner.planWithout(set, failed.stream().map(NodeReference::toString).toList());
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

    /** A flow's {@code resolved} when its source is gone with a failed node. */
    static final String NOT_SENT = "not sent";

    /** "its source pod cluster1/default/client ran on cluster1/worker-1, which failed (--fail)", when so. */
    private Optional<String> failedSource(FlowSource from) {
        return switch (from) {
            case FlowSource.PodSource p -> onFailedNode(p.cluster(), p.namespace(), p.pod())
                    .map(node -> "its source pod " + from + " ran on " + node + ", which failed (--fail)");
            case FlowSource.NodeSource n -> failed.contains(new NodeReference(n.cluster(), n.node()))
                    ? Optional.of("its source node " + from + " failed (--fail)") : Optional.empty();
        };
    }

    private Optional<NodeReference> onFailedNode(String cluster, String namespace, String podName) {
        return original.cluster(cluster).flatMap(c -> c.pod(namespace, podName))
                .map(pod -> new NodeReference(cluster, pod.node()))
                .filter(failed::contains);
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

    /**
     * The next segment (an ACK) of the flow's TCP connections, as after a failure moved them: every
     * host on the way meets it without a conntrack entry ({@link Simulator#traceMidStream}). Empty for
     * a flow that is not TCP or whose source is gone with a failed node.
     */
    Optional<List<PathTrace>> traceMidStream(Flow flow) {
        if (flow.protocol() != io.periscope.model.topology.Protocol.TCP || failedSource(flow.from()).isPresent()) {
            return Optional.empty();
        }
        try {
            return Optional.of(simulator.traceMidStream(simulator.resolver().resolve(reachable(flow))));
        } catch (io.periscope.simulator.NameNotAnswered e) {
            return Optional.empty();
        } catch (FlowResolutionException e) {
            throw new ParameterException(commandLine, e.getMessage());
        }
    }

    /** A flow to a pod of a failed node goes to the address the pod had, as a client that still holds it would send. */
    private Flow reachable(Flow flow) {
        if (flow.to() instanceof FlowTarget.PodTarget target && onFailedNode(target.cluster(), target.namespace(), target.pod()).isPresent()) {
            Pod pod = original.requireCluster(target.cluster()).pod(target.namespace(), target.pod()).orElseThrow();
            return new Flow(flow.name(), flow.from(), new FlowTarget.AddressTarget(pod.ip(), target.port()), flow.protocol(), flow.expect());
        }
        return flow;
    }

    /**
     * A flow whose source ran on a failed node sends nothing: it is traced as unreachable with the
     * reason, so the failover report can say it breaks. A flow to a pod of a failed node is traced to
     * the address the pod had, as a client that still holds it would send.
     */
    FlowTrace trace(Flow flow) {
        Optional<String> goneSource = failedSource(flow.from());
        if (goneSource.isPresent()) {
            return new FlowTrace(flow.name(), flow.from().toString(), flow.to().toString(), NOT_SENT,
                    List.of(new PathTrace(Disposition.UNREACHABLE, List.of(), List.of(),
                            Optional.of(goneSource.get() + "; nothing is sent"), List.of())));
        }
        Flow traced = reachable(flow);
        try {
            FlowTrace trace = simulator.trace(traced);
            return new FlowTrace(trace.name(), flow.from().toString(), flow.to().toString(), trace.resolved(), trace.paths());
        } catch (FlowResolutionException e) {
            // The resolver's message already starts with "flow 'NAME': ".
            if (failed.stream().anyMatch(n -> e.getMessage().contains(n.cluster()))) {
                throw new ParameterException(commandLine, e.getMessage() + " (it runs on a node named by --fail)");
            }
            throw new ParameterException(commandLine, e.getMessage());
        }
    }
}
