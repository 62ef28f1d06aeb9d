package io.periscope.labsimulator;

import io.periscope.lab.bench.BenchPrediction;
import io.periscope.lab.bench.BenchPrediction.PredictedStream;
import io.periscope.lab.bench.BenchPrediction.Route;
import io.periscope.lab.bench.BenchSimulation;
import io.periscope.lab.failover.FailoverPrediction;
import io.periscope.lab.probe.FlowSimulation;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Node;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.CompiledRoute;
import io.periscope.simulator.routing.KernelNexthopChoice;
import io.periscope.simulator.routing.MultipathHashSettings;
import io.periscope.simulator.routing.NexthopChoice;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code lab bench}'s predictions by the simulator ({@link BenchPrediction} says what they are):
 * each node chooses as the kernel does ({@link KernelNexthopChoice}, under the seed {@code lab up}
 * gave it), except the first choice a socket-hashed host makes for a stream's forward packets,
 * which is traced once per offered nexthop, each with the chance of its weight.
 */
public final class SimulatorBench implements BenchSimulation {

    @Override
    public FlowSimulation flows(ClusterSetPlan plan) {
        return new SimulatorFlows(plan);
    }

    @Override
    public List<PredictedStream> streams(ClusterSetPlan plan, Map<HostId, Integer> seeds, List<FailoverPrediction.StreamFlow> streams) {
        SocketHashChoice choice = new SocketHashChoice(KernelNexthopChoice.programmed(plan, seeds.keySet(), seeds::get), plan);
        Simulator simulator = new Simulator(plan, choice);
        Set<HostId> gateways = gatewayNodes(plan);
        List<PredictedStream> predicted = new ArrayList<>();
        for (FailoverPrediction.StreamFlow stream : streams) {
            ResolvedFlow flow = SimulatorFailover.flow(stream);
            Set<HostId> socketHosts = socketHosts(plan, flow.source());
            choice.begin(socketHosts, flow.sourcePort(), -1);
            PathTrace hashed = first(simulator.trace(flow));
            Optional<Offer> offer = choice.offer();
            if (offer.isEmpty()) {
                predicted.add(new PredictedStream(stream.id(), List.of(route(hashed, flow.source(), gateways, 1)), Optional.empty()));
                continue;
            }
            List<Route> routes = new ArrayList<>();
            long total = offer.get().weights().stream().mapToLong(Integer::longValue).sum();
            for (int i = 0; i < offer.get().weights().size(); i++) {
                choice.begin(socketHosts, flow.sourcePort(), i);
                PathTrace taken = first(simulator.trace(flow));
                routes.add(route(taken, flow.source(), gateways, (double) offer.get().weights().get(i) / total));
            }
            predicted.add(new PredictedStream(stream.id(), merged(routes), Optional.of(offer.get().host().toString())));
        }
        return predicted;
    }

    /** Routes that are the same (two nexthops to one gateway) as one, their chances added. */
    private static List<Route> merged(List<Route> routes) {
        List<Route> merged = new ArrayList<>();
        for (Route route : routes) {
            int same = -1;
            for (int i = 0; i < merged.size(); i++) {
                Route m = merged.get(i);
                if (m.local().equals(route.local()) && m.remote().equals(route.remote()) && m.delivered() == route.delivered()) {
                    same = i;
                }
            }
            if (same < 0) {
                merged.add(route);
            } else {
                Route m = merged.get(same);
                merged.set(same, new Route(m.local(), m.remote(), m.probability() + route.probability(), m.delivered()));
            }
        }
        return merged;
    }

    private static PathTrace first(List<PathTrace> paths) {
        if (paths.isEmpty()) {
            throw new IllegalStateException("the simulator traced no path");
        }
        return paths.getFirst();
    }

    /** The forward path's first gateway in the client's cluster and first in another. */
    private static Route route(PathTrace path, HostId source, Set<HostId> gateways, double probability) {
        Optional<String> local = Optional.empty();
        Optional<String> remote = Optional.empty();
        for (Hop hop : path.forward()) {
            if (!gateways.contains(hop.node())) {
                continue;
            }
            if (hop.node().cluster().equals(source.cluster())) {
                local = local.or(() -> Optional.of(hop.node().toString()));
            } else {
                remote = remote.or(() -> Optional.of(hop.node().toString()));
            }
        }
        return new Route(local, remote, probability, path.disposition() == Disposition.DELIVERED);
    }

    static Set<HostId> gatewayNodes(ClusterSetPlan plan) {
        Set<HostId> gateways = new HashSet<>();
        for (Cluster cluster : plan.clusterSet().clusters()) {
            for (Node node : cluster.gateways()) {
                gateways.add(HostId.node(cluster.name(), node.name()));
            }
        }
        return gateways;
    }

    /** The hosts a packet reaches still carrying its socket's hash: the sender's own, and a pod's node (over the pod's veth). */
    static Set<HostId> socketHosts(ClusterSetPlan plan, HostId source) {
        Set<HostId> hosts = new HashSet<>();
        hosts.add(source);
        if (source.isPod()) {
            plan.host(source).flatMap(HostPlan::node).ifPresent(node -> hosts.add(HostId.node(source.cluster(), node)));
        }
        return hosts;
    }

    /** Whether {@code host} hashes L4 with a packet's own hash first ({@code fib_multipath_hash_policy=1}). */
    static boolean takesThePacketsHash(ClusterSetPlan plan, HostId host) {
        return plan.host(host).map(h -> "1".equals(h.effective().sysctls().get(BenchPrediction.MULTIPATH_HASH_POLICY))).orElse(false);
    }

    /** The choice that followed the socket's hash: where, and the offered nexthops' weights. */
    record Offer(HostId host, List<Integer> weights) {
    }

    /**
     * The kernel's choice, except the first one a socket-hashed host makes for the stream's forward
     * packet: that one is recorded, and taken as told ({@link #begin}'s {@code forced}) or, when not
     * told, as the 5-tuple hash would (only to find out that there is such a choice).
     */
    private static final class SocketHashChoice implements NexthopChoice {

        private final NexthopChoice kernel;
        private final ClusterSetPlan plan;
        private Set<HostId> socketHosts = Set.of();
        private int sourcePort;
        private int forced = -1;
        private Offer offer;

        SocketHashChoice(NexthopChoice kernel, ClusterSetPlan plan) {
            this.kernel = kernel;
            this.plan = plan;
        }

        /** @param port the client's source port, which tells the stream's forward packets from its answers */
        void begin(Set<HostId> hosts, int port, int forcedIndex) {
            socketHosts = hosts;
            sourcePort = port;
            forced = forcedIndex;
            offer = null;
        }

        Optional<Offer> offer() {
            return Optional.ofNullable(offer);
        }

        @Override
        public int choose(HostId host, MultipathHashSettings hashing, boolean forwarded, CompiledRoute route,
                          List<CompiledNexthop> offered, Packet packet) {
            if (offer == null && offered.size() > 1 && socketHosts.contains(host) && packet.sport() == sourcePort
                    && takesThePacketsHash(plan, host)) {
                offer = new Offer(host, offered.stream().map(CompiledNexthop::weight).toList());
                if (forced >= 0) {
                    kernel.choose(host, hashing, forwarded, route, offered, packet);
                    return forced;
                }
            }
            return kernel.choose(host, hashing, forwarded, route, offered, packet);
        }
    }
}
