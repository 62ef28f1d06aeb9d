package io.periscope.labsimulator;

import io.periscope.lab.failover.FailoverPrediction;
import io.periscope.lab.failover.FailoverPrediction.PredictedConnection;
import io.periscope.lab.failover.FailoverPrediction.PredictedStream;
import io.periscope.lab.failover.FailoverPrediction.StreamFlow;
import io.periscope.lab.failover.FailoverSimulation;
import io.periscope.lab.probe.FlowSimulation;
import io.periscope.model.topology.Disposition;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.routing.KernelNexthopChoice;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code lab failover}'s predictions by the simulator: each stream traced in the plans the lab says
 * the nodes are programmed with ({@link FailoverPrediction#plans}), each node choosing as the kernel
 * does ({@link KernelNexthopChoice}: the multipath hash under its seed, hash-threshold or resilient
 * buckets, which carry over from one phase's plan to the next).
 */
public final class SimulatorFailover implements FailoverSimulation {

    @Override
    public FlowSimulation flows(ClusterSetPlan plan) {
        return new SimulatorFlows(plan);
    }

    @Override
    public List<PredictedStream> streams(ClusterSetPlan plan, Map<HostId, Integer> seeds, List<StreamFlow> streams, String failed,
                                         boolean withdraw, boolean healed) {
        FailoverPrediction.FailurePlans plans = FailoverPrediction.plans(plan, failed, withdraw);
        KernelNexthopChoice upChoice = KernelNexthopChoice.programmed(plan, seeds.keySet(), seeds::get);
        List<Set<String>> before = gateways(new Simulator(plan, upChoice), streams);
        KernelNexthopChoice failedChoice = upChoice.after(plans.during());
        List<Set<String>> whileFailed = gateways(new Simulator(plans.during(), failedChoice), streams);
        List<Set<String>> afterHeal = healed ? gateways(new Simulator(plans.healed(), failedChoice.after(plans.healed())), streams) : null;
        List<PredictedStream> predicted = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            predicted.add(new PredictedStream(streams.get(i).id(), before.get(i), whileFailed.get(i), healed ? afterHeal.get(i) : Set.of()));
        }
        return predicted;
    }

    /**
     * A connection survives when its next segment after the move reaches the server as the
     * connection's did ({@link PredictedConnection}): the same addresses and ports, and no host on
     * the new way source-translates it by a fresh conntrack entry ({@link #noFreshSnat}).
     */
    @Override
    public List<PredictedConnection> connections(ClusterSetPlan plan, Map<HostId, Integer> seeds, List<StreamFlow> connections,
                                                 String failed) {
        ClusterSetPlan during = FailoverPrediction.plans(plan, failed, true).during();
        KernelNexthopChoice upChoice = KernelNexthopChoice.programmed(plan, seeds.keySet(), seeds::get);
        Simulator up = new Simulator(plan, upChoice);
        List<Set<String>> before = gateways(up, connections);
        Simulator down = new Simulator(during, upChoice.after(during));
        List<Set<String>> whileFailed = gateways(down, connections);
        List<PredictedConnection> predicted = new ArrayList<>();
        for (int i = 0; i < connections.size(); i++) {
            ResolvedFlow flow = flow(connections.get(i));
            Optional<PathTrace> established = delivered(up.trace(flow));
            Optional<PathTrace> moved = delivered(down.traceMidStream(flow));
            boolean survives = established.isPresent() && moved.isPresent()
                    && atServer(established.get()).sameFlow(atServer(moved.get())) && noFreshSnat(established.get(), moved.get());
            predicted.add(new PredictedConnection(connections.get(i).id(), before.get(i), whileFailed.get(i), survives));
        }
        return predicted;
    }

    /** The stream as the simulator traces it. */
    static ResolvedFlow flow(StreamFlow stream) {
        return new ResolvedFlow(stream.source(), stream.sourceIp(), stream.destination(), stream.port(), stream.protocol(), stream.sourcePort());
    }

    private static Optional<PathTrace> delivered(List<PathTrace> paths) {
        return paths.stream().filter(p -> p.disposition() == Disposition.DELIVERED && !p.forward().isEmpty()).findFirst();
    }

    /** The segment as the server receives it. */
    private static Packet atServer(PathTrace path) {
        return path.forward().getLast().arrive();
    }

    /**
     * Whether every host that source-translates the moved segment translates it by the connection's
     * own conntrack entry: the segment arrives there exactly as the connection's packets did. A host
     * that sees it differently makes a new entry, and the translation it picks must differ from the
     * one the connection's entry still holds (conntrack keeps every translated tuple unique, by
     * another source port if need be), so the server would see a connection it does not know.
     */
    private static boolean noFreshSnat(PathTrace established, PathTrace moved) {
        Map<HostId, Packet> arrived = new HashMap<>();
        established.forward().forEach(hop -> arrived.putIfAbsent(hop.node(), hop.arrive()));
        for (Hop hop : moved.forward()) {
            boolean translates = hop.steps().stream().anyMatch(step -> step instanceof Step.Snat);
            Packet before = arrived.get(hop.node());
            if (translates && (before == null || !before.sameFlow(hop.arrive()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The gateways each stream's packets reach that the lab's counters can see: the lab's gateway counters
     * match a stream by its source address and port as it arrives, so a gateway the packets reach
     * already translated (a remote gateway behind Globalnet's SNAT) counts nothing and is left out.
     * Only the forward way counts, whatever becomes of the answer: the streams are one-way.
     */
    private static List<Set<String>> gateways(Simulator simulator, List<StreamFlow> streams) {
        List<Set<String>> gateways = new ArrayList<>();
        for (StreamFlow stream : streams) {
            Set<String> seen = new LinkedHashSet<>();
            for (PathTrace path : simulator.trace(flow(stream))) {
                for (Hop hop : path.forward()) {
                    boolean tunnel = hop.in().filter(i -> i.equals("vx-submariner") || i.equals("vxlan-tunnel")).isPresent()
                            || hop.out().filter(o -> o.equals("vxlan-tunnel")).isPresent();
                    if (tunnel && hop.arrive().sport() == stream.sourcePort()
                            && stream.sourceIp().map(ip -> ip.equals(hop.arrive().src())).orElse(true)) {
                        seen.add(hop.node().toString());
                    }
                }
            }
            gateways.add(seen);
        }
        return gateways;
    }
}
