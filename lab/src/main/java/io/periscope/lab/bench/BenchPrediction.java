package io.periscope.lab.bench;

import io.periscope.lab.failover.FailoverPrediction;
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
 * The simulator's prediction of the gateways each bench stream takes, for the stream's own 5-tuple:
 * its local (egress) gateway and its remote (ingress) gateway. Each node chooses as the kernel does
 * ({@link KernelNexthopChoice}: the multipath hash under the seed {@code lab up} gave the node), as
 * {@code lab failover}'s prediction does ({@link FailoverPrediction}), with one exception that TCP
 * makes: with L4 hashing ({@code fib_multipath_hash_policy=1}) Linux takes a packet's own flow hash
 * when it carries one instead of hashing its 5-tuple, and every packet of a TCP socket carries the
 * socket's random hash. It travels with the packet through the pod's veth to its node (on a real
 * node as in the lab), so the first choice the source's node (or a node's own socket) makes is a
 * throw of the socket's dice: each nexthop with the chance of its weight. Once the packet has crossed
 * a wire between machines the hash is gone (the lab's switches forget it, see
 * {@link io.periscope.lab.wire.HashResetProgram}) and every later choice is the 5-tuple's again. So a
 * stream from a pod on a worker has as many predicted routes as the worker has gateways to choose
 * from, each with its remote gateway exactly predicted; under L3 hashing, or from a pod on a
 * gateway node with a single way out, one.
 */
public final class BenchPrediction {

    static final String MULTIPATH_HASH_POLICY = "net.ipv4.fib_multipath_hash_policy";

    /**
     * One way a stream can go.
     *
     * @param local       its gateway in the client's cluster; empty when it crossed none
     * @param remote      its gateway in the server's cluster; empty when it crossed none
     * @param probability its chance: 1 when every choice on the way is the 5-tuple's
     * @param delivered   whether the simulator delivers it this way
     */
    public record Route(Optional<String> local, Optional<String> remote, double probability, boolean delivered) {

        public String describe() {
            return local.orElse("none") + " > " + remote.orElse("none");
        }
    }

    /**
     * A stream's predicted routes, one when every choice is the 5-tuple's.
     *
     * @param socketHashedAt the node whose choice follows the client socket's own random hash, when one chooses
     */
    public record PredictedStream(int id, List<Route> routes, Optional<String> socketHashedAt) {

        public PredictedStream {
            routes = List.copyOf(routes);
        }

        /** The chance that the stream's local gateway is {@code gateway}. */
        public double localChance(String gateway) {
            return routes.stream().filter(r -> r.local().filter(gateway::equals).isPresent()).mapToDouble(Route::probability).sum();
        }

        /** The chance that the stream's remote gateway is {@code gateway}. */
        public double remoteChance(String gateway) {
            return routes.stream().filter(r -> r.remote().filter(gateway::equals).isPresent()).mapToDouble(Route::probability).sum();
        }

        /**
         * Whether what was measured is one of the predicted routes, by the main gateways (those that
         * carried most of the stream's forward bytes): the main local gateway is a predicted one, and
         * the main remote gateway is predicted after it or after another local gateway the stream
         * crossed (a socket picks a new hash after a retransmission timeout, and the stream moves
         * with its remote gateway; the two sides' bytes may then favour different legs).
         */
        public boolean allows(GatewayPassage measured) {
            Optional<String> local = measured.mainLocal();
            Optional<String> remote = measured.mainRemote();
            if (routes.stream().noneMatch(r -> r.local().equals(local))) {
                return false;
            }
            Set<Optional<String>> locals = new HashSet<>();
            locals.add(local);
            measured.local().forEach(g -> locals.add(Optional.of(g)));
            return routes.stream().anyMatch(r -> locals.contains(r.local()) && r.remote().equals(remote));
        }

        public String describe() {
            if (routes.size() == 1) {
                return routes.getFirst().describe();
            }
            return String.join(" or ", routes.stream().map(Route::describe).toList());
        }
    }

    private BenchPrediction() {
    }

    /** Each stream's routes under the seeds {@code lab up} gave the nodes (see {@link FailoverPrediction#labSeeds}). */
    public static List<PredictedStream> of(ClusterSetPlan plan, Map<HostId, Integer> seeds, List<FailoverPrediction.StreamFlow> streams) {
        SocketHashChoice choice = new SocketHashChoice(KernelNexthopChoice.programmed(plan, seeds.keySet(), seeds::get), plan);
        Simulator simulator = new Simulator(plan, choice);
        Set<HostId> gateways = gatewayNodes(plan);
        List<PredictedStream> predicted = new ArrayList<>();
        for (FailoverPrediction.StreamFlow stream : streams) {
            ResolvedFlow flow = stream.flow();
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
        return plan.host(host).map(h -> "1".equals(h.effective().sysctls().get(MULTIPATH_HASH_POLICY))).orElse(false);
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
