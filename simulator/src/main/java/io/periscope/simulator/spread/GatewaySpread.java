package io.periscope.simulator.spread;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Node;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.link.PathLinkCrossings;
import io.periscope.simulator.link.VxlanFabric;
import io.periscope.simulator.routing.KernelNexthopChoice;
import io.periscope.simulator.routing.MultipathHashSettings;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.LinkFigures;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * How the connections of one flow spread over the gateways: for each source port, the gateway the
 * connection leaves its cluster by and the one it enters the other cluster by, as each node's kernel
 * chooses them (its cluster's hash policy from the plan, its {@code fib_multipath_hash_seed}, then
 * hash-threshold over a multipath route or a plain group, or a resilient group's bucket: a
 * {@link KernelNexthopChoice}); then the counts, the share each gateway is expected to get, and the
 * aggregate rate the gateways that carry a connection could give.
 *
 * <p>The prediction per port holds for packets that carry no flow hash of their own. Under policy 1
 * (L4) the kernel routes a packet by the hash its socket stamped on it when there is one (every TCP
 * socket, a connected UDP socket), drawn at random per connection: the node where such a packet is
 * first routed (the source pod's node) then chooses at random, evenly over its nexthops, so the
 * counts of a real run are a sample of the expected shares, not this prediction port by port. Under
 * policies 0, 2 and 3 the kernel ignores the socket's hash, and the prediction holds port by port.
 */
public final class GatewaySpread {

    /** Linux's {@code net.ipv4.ip_local_port_range}, where connect() picks a connection's source port. */
    public static final int EPHEMERAL_LOW = 32768;
    public static final int EPHEMERAL_HIGH = 60999;
    /** The most connections a spread may ask for: every port of the ephemeral range once. */
    public static final int MAX_CONNECTIONS = EPHEMERAL_HIGH - EPHEMERAL_LOW + 1;

    /** A connection's predicted gateways: empty where its path crosses no cluster boundary. */
    public record PortChoice(int sourcePort, Optional<HostId> localGateway, Optional<HostId> remoteGateway, Disposition disposition) {
    }

    /**
     * One gateway's part of the spread.
     *
     * @param expectedShare the share the hash policy gives it in expectation: 1/k of k gateways when the
     *                      ports take part, else 1 for the one the addresses hash to and 0 for the others
     * @param samplingError one binomial standard deviation of its share over this many connections,
     *                      {@code sqrt(p (1 - p) / n)}: how far a sample of random ports strays
     * @param rate          its uplink's rate, empty when unshaped
     * @param copies        how many copies of each frame of the flow its uplink sends: one, unless its
     *                      VXLAN device floods the frames to several all-zero FDB destinations
     *                      ({@link VxlanFabric#copies}); 1 on the remote side
     */
    public record GatewayShare(HostId gateway, int connections, double share, double expectedShare, double samplingError,
                               OptionalLong rate, int copies) {
    }

    /**
     * The spread of one flow's connections.
     *
     * @param hashing          the hash policy of the source's cluster, which both choices follow (the
     *                         source's node picks the local gateway, that gateway the remote one)
     * @param addressesOnly    whether that policy hashes the addresses alone, so every connection takes the same gateways
     * @param local            the gateways the connections leave by, in the cluster's order; every gateway a path can take, even with none
     * @param remote           the gateways they enter the other cluster by
     * @param otherBottleneck  the slowest link the paths cross that is no gateway's uplink (the source's and destination's
     *                         nodes, the cable), with its name
     * @param aggregate        the rate the connections could reach together: the sum of the rates of the local gateways
     *                         that carry one, each divided by the copies of a frame it sends, the same for the remote
     *                         ones (each of which receives every flooded copy), capped by the other bottleneck; empty
     *                         when nothing on the way is shaped
     */
    public record Spread(int connections, MultipathHashSettings hashing, boolean addressesOnly, List<PortChoice> ports,
                         List<GatewayShare> local, List<GatewayShare> remote, Optional<LinkFigures.Bottleneck> otherBottleneck,
                         OptionalLong aggregate) {

        /** Connections whose path crosses no cluster boundary (a flow within a cluster, or one that never gets out). */
        public long withoutGateway() {
            return ports.stream().filter(p -> p.localGateway().isEmpty()).count();
        }
    }

    private GatewaySpread() {
    }

    /**
     * {@code n} source ports spread evenly over the ephemeral range, port {@code i} being
     * {@code 32768 + floor(i * 28232 / n)}: the kernel picks connect()'s ports with a keyed hash of a
     * secret drawn at boot, so no prediction can know which ports a run will get; evenly spaced ones
     * are as good a sample of the range as any, and every run of the prediction takes the same.
     */
    public static List<Integer> ephemeralPorts(int n) {
        if (n < 1 || n > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("between 1 and " + MAX_CONNECTIONS + " connections, not " + n);
        }
        List<Integer> ports = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ports.add(EPHEMERAL_LOW + (int) ((long) i * MAX_CONNECTIONS / n));
        }
        return ports;
    }

    /**
     * Each source port's predicted local and remote gateway: what {@code lab bench} compares with the
     * gateways a real run's connections took.
     *
     * @param seeds each node's {@code fib_multipath_hash_seed}; a node without one chooses by Periscope's documented hash
     */
    public static List<PortChoice> perPort(ClusterSetPlan plan, ResolvedFlow flow, List<Integer> sourcePorts, Map<HostId, Integer> seeds) {
        Simulator simulator = new Simulator(plan, KernelNexthopChoice.programmed(plan, seeds.keySet(), seeds::get));
        List<PortChoice> choices = new ArrayList<>();
        for (int port : sourcePorts) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("source port " + port + " is not in 1..65535");
            }
            ResolvedFlow connection = new ResolvedFlow(flow.source(), flow.sourceIp(), flow.destination(), flow.port(), flow.protocol(),
                    port, flow.size());
            List<PathTrace> paths = simulator.trace(connection);
            PathTrace path = paths.getFirst();
            Optional<Hop[]> boundary = boundary(path.forward());
            choices.add(new PortChoice(port, boundary.map(b -> b[0].node()), boundary.map(b -> b[1].node()), path.disposition()));
        }
        return choices;
    }

    /** The spread of {@code flow}'s connections from {@code sourcePorts}; see {@link #perPort}. */
    public static Spread of(ClusterSetPlan plan, ResolvedFlow flow, List<Integer> sourcePorts, Map<HostId, Integer> seeds) {
        List<PortChoice> ports = perPort(plan, flow, sourcePorts, seeds);
        // Every gateway a path can take: the simulator following every choice.
        List<PathTrace> all = new Simulator(plan, MultipathMode.ALL_BRANCHES).trace(flow);
        Set<HostId> localGateways = new LinkedHashSet<>();
        Set<HostId> remoteGateways = new LinkedHashSet<>();
        Map<HostId, Integer> copies = new HashMap<>();
        boolean floodedIntoLocal = false;
        for (PathTrace path : all) {
            Optional<Hop[]> boundary = boundary(path.forward());
            if (boundary.isEmpty()) {
                continue;
            }
            Hop[] b = boundary.get();
            localGateways.add(b[0].node());
            remoteGateways.add(b[1].node());
            copies.merge(b[0].node(), copies(plan, b[0]), Math::max);
            // The hops inside the source's cluster before its gateway: a node whose vx-submariner
            // floods sends every frame to each of the cluster's gateways.
            for (Hop hop : path.forward().subList(0, path.forward().indexOf(b[0]))) {
                floodedIntoLocal |= copies(plan, hop) > 1;
            }
        }
        MultipathHashSettings hashing = hashing(plan, all);
        boolean addressesOnly = hashing.addressesOnly();
        Map<HostId, Integer> localCounts = new HashMap<>();
        Map<HostId, Integer> remoteCounts = new HashMap<>();
        for (PortChoice choice : ports) {
            choice.localGateway().ifPresent(g -> localCounts.merge(g, 1, Integer::sum));
            choice.remoteGateway().ifPresent(g -> remoteCounts.merge(g, 1, Integer::sum));
        }
        ClusterSet set = plan.clusterSet();
        List<GatewayShare> local = shares(set, ordered(set, localGateways), localCounts, ports.size(), addressesOnly, copies);
        List<GatewayShare> remote = shares(set, ordered(set, remoteGateways), remoteCounts, ports.size(), addressesOnly, Map.of());

        Set<String> gatewayLinks = new LinkedHashSet<>();
        localGateways.forEach(g -> gatewayLinks.add(g + " uplink"));
        remoteGateways.forEach(g -> gatewayLinks.add(g + " uplink"));
        Optional<LinkFigures.Bottleneck> other = otherBottleneck(new PathLinkCrossings(set), all, gatewayLinks);
        return new Spread(ports.size(), hashing, addressesOnly, ports, local, remote, other, aggregate(local, remote, other, floodedIntoLocal));
    }

    /** The hop that leaves the source's cluster and the one it arrives at in the other: the local and the remote gateway. */
    private static Optional<Hop[]> boundary(List<Hop> hops) {
        for (int i = 0; i + 1 < hops.size(); i++) {
            HostId from = hops.get(i).node();
            HostId to = hops.get(i + 1).node();
            if (!from.cluster().equals(to.cluster()) && !from.isPod() && !to.isPod()) {
                return Optional.of(new Hop[]{hops.get(i), hops.get(i + 1)});
            }
        }
        return Optional.empty();
    }

    /** The policy of the first node the forward packets cross (the source's node, or the source when it is a node). */
    private static MultipathHashSettings hashing(ClusterSetPlan plan, List<PathTrace> paths) {
        for (PathTrace path : paths) {
            for (Hop hop : path.forward()) {
                HostPlan host = plan.hosts().get(hop.node());
                if (host != null && host.role() != HostPlan.HostRole.POD) {
                    return MultipathHashSettings.of(host.effective().sysctls());
                }
            }
        }
        return MultipathHashSettings.KERNEL_DEFAULT;
    }

    /** The gateways in the file's order of clusters and nodes, so the report reads as the file does. */
    private static List<HostId> ordered(ClusterSet set, Set<HostId> gateways) {
        List<HostId> ordered = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            for (Node node : cluster.nodes()) {
                HostId id = HostId.node(cluster.name(), node.name());
                if (gateways.contains(id)) {
                    ordered.add(id);
                }
            }
        }
        gateways.stream().filter(g -> !ordered.contains(g)).forEach(ordered::add);
        return ordered;
    }

    /**
     * The copies of each frame the local gateway's hop sends through its cable: a VXLAN device that
     * floods (upstream's, which learns nothing) sends one per all-zero FDB destination, a learning
     * one (seed 004's towards several active gateways), WireGuard and ESP one.
     */
    private static int copies(ClusterSetPlan plan, Hop hop) {
        HostPlan host = plan.hosts().get(hop.node());
        if (host == null) {
            return 1;
        }
        int copies = 1;
        for (Step step : hop.steps()) {
            if (step instanceof Step.Encap encap && encap.encapsulation() == Encapsulation.VXLAN) {
                copies = Math.max(copies, VxlanFabric.copies(host.effective(), encap.device()));
            }
        }
        return copies;
    }

    private static List<GatewayShare> shares(ClusterSet set, List<HostId> gateways, Map<HostId, Integer> counts, int n,
                                             boolean addressesOnly, Map<HostId, Integer> copies) {
        List<GatewayShare> shares = new ArrayList<>();
        for (HostId gateway : gateways) {
            int count = counts.getOrDefault(gateway, 0);
            // Addresses alone: every connection hashes alike, so the one gateway that has them is certain to.
            double expected = addressesOnly ? (count == n && n > 0 ? 1 : 0) : 1.0 / gateways.size();
            double error = n == 0 ? 0 : Math.sqrt(expected * (1 - expected) / n);
            shares.add(new GatewayShare(gateway, count, n == 0 ? 0 : (double) count / n, expected, error, uplinkRate(set, gateway),
                    copies.getOrDefault(gateway, 1)));
        }
        return shares;
    }

    private static OptionalLong uplinkRate(ClusterSet set, HostId gateway) {
        return set.cluster(gateway.cluster()).flatMap(c -> c.nodes().stream().filter(n -> n.name().equals(gateway.name())).findFirst())
                .map(n -> n.link().uplink().rateBitsPerSecond()).orElse(OptionalLong.empty());
    }

    /** The slowest rate of every path's links that are not the gateways' own uplinks. */
    private static Optional<LinkFigures.Bottleneck> otherBottleneck(PathLinkCrossings links, List<PathTrace> paths, Set<String> gatewayLinks) {
        LinkFigures.Bottleneck slowest = null;
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (PathTrace path : paths) {
            for (LinkFigures.Crossing crossing : links.crossings(path.forward())) {
                if (gatewayLinks.contains(crossing.link()) || seen.put(crossing.link(), true) != null) {
                    continue;
                }
                OptionalLong rate = crossing.properties().rateBitsPerSecond();
                if (rate.isPresent() && (slowest == null || rate.getAsLong() < slowest.bitsPerSecond())) {
                    slowest = new LinkFigures.Bottleneck(rate.getAsLong(), crossing.link());
                }
            }
        }
        return Optional.ofNullable(slowest);
    }

    /**
     * The gateways in parallel, each side's carrying gateways adding up, the rest in series: the
     * least of the local sum, the remote sum and the other bottleneck. A local gateway whose VXLAN
     * device floods gives its rate divided by the copies it sends of each frame, and then every
     * remote gateway its copies reach receives every frame: the remote side gives the least of their
     * rates, not their sum. The same holds for the local side when the source's node floods its
     * frames to every local gateway ({@code floodedIntoLocal}). A side with an unshaped gateway that carries a connection limits nothing.
     * An upper bound: it assumes enough connections on each gateway to fill it, as TCP's congestion
     * control does given time.
     */
    private static OptionalLong aggregate(List<GatewayShare> local, List<GatewayShare> remote, Optional<LinkFigures.Bottleneck> other,
                                          boolean floodedIntoLocal) {
        OptionalLong result = other.map(b -> OptionalLong.of(b.bitsPerSecond())).orElse(OptionalLong.empty());
        boolean flooded = local.stream().anyMatch(s -> s.connections() > 0 && s.copies() > 1);
        for (List<GatewayShare> side : List.of(local, remote)) {
            OptionalLong sum = side == remote && flooded ? slowest(side) : sideRate(side);
            if (side == local && floodedIntoLocal) {
                OptionalLong least = slowest(side);
                sum = sum.isEmpty() ? least : least.isEmpty() ? sum : OptionalLong.of(Math.min(sum.getAsLong(), least.getAsLong()));
            }
            if (sum.isPresent() && (result.isEmpty() || sum.getAsLong() < result.getAsLong())) {
                result = sum;
            }
        }
        return result;
    }

    private static OptionalLong sideRate(List<GatewayShare> side) {
        long sum = 0;
        boolean any = false;
        for (GatewayShare share : side) {
            if (share.connections() == 0) {
                continue;
            }
            if (share.rate().isEmpty()) {
                return OptionalLong.empty();
            }
            sum += share.rate().getAsLong() / share.copies();
            any = true;
        }
        return any ? OptionalLong.of(sum) : OptionalLong.empty();
    }

    /** The least rate of a side's gateways, each of which receives every frame; empty when one is unshaped. */
    private static OptionalLong slowest(List<GatewayShare> side) {
        long least = Long.MAX_VALUE;
        for (GatewayShare share : side) {
            if (share.rate().isEmpty()) {
                return OptionalLong.empty();
            }
            least = Math.min(least, share.rate().getAsLong());
        }
        return side.isEmpty() ? OptionalLong.empty() : OptionalLong.of(least);
    }
}
