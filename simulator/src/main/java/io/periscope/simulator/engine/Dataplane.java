package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ovn.LoadBalancer;
import io.periscope.plan.routing.RouteType;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.link.Wiring;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.ovn.LogicalRouterPipeline;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.MultipathHash;
import io.periscope.simulator.routing.NexthopChoice;
import io.periscope.simulator.routing.RouteDecision;
import io.periscope.simulator.routing.RoutingPolicy;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.RuleRef;
import io.periscope.simulator.trace.Step;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Walks packets through a {@link CompiledNetwork} in the kernel's order. Arriving: PREROUTING (raw,
 * conntrack, mangle, nat), policy routing, then either INPUT (mangle, filter, nat) and delivery, or
 * FORWARD (TTL, mangle, filter) and POSTROUTING (mangle, nat, conntrack confirm) out of an interface.
 * Locally generated: routing (which picks the source address), OUTPUT (raw, conntrack, mangle, nat,
 * filter), rerouting when OUTPUT changed the destination or mark, POSTROUTING.
 *
 * <p>This class is the walker: it decides what comes next and hands each concern to its own class,
 * which works on the branch's {@link Visit}: {@link NetfilterPass} runs the tables of one part of the
 * path, {@link ConntrackLayer} and {@link Nat} keep connections and their translations,
 * {@link ReversePathFilter} and {@link Mtu} may stop a packet, {@link Encapsulator} and
 * {@link Decapsulator} are the two ends of a cable, and {@link Endings} ends a branch. Only the walker
 * continues one, so the cables answer with a {@link CableExit} or {@link CableEntry} for it to act on.
 *
 * <p>A cable wraps the packet into a UDP packet, which the same host then sends like any locally
 * generated packet; at the receiving host that UDP packet is delivered locally (after INPUT) and the
 * inner packet enters the host again.
 *
 * <p>The decisions every hop makes (a route, a delivery, a rule's target) are told apart with
 * {@code instanceof}: a pattern {@code switch} dispatches through a call the JIT does not inline,
 * and that was a tenth of a trace. Rare outcomes keep their exhaustive switches.
 *
 * <p>Wherever the dataplane offers alternatives (nexthops of a multipath route, a {@code statistic}
 * match) every alternative becomes its own branch, or, when following a single path per flow, a hash
 * of the flow picks one. Each branch carries its own conntrack state, so the reply of a branch sees
 * exactly the connections its forward packet created.
 */
public final class Dataplane {

    /** More hops than this on one direction of a path is a loop. */
    public static final int MAX_HOPS = 64;
    /** Bound on passes through one host's stack (encapsulation to itself would otherwise never end). */
    private static final int MAX_PASSES = 4 * MAX_HOPS;

    private final CompiledNetwork net;
    private final boolean followAll;
    private final NexthopChoice choice;
    private final NetfilterPass netfilter;
    private final Encapsulator encapsulator;
    private final Decapsulator decapsulator;

    // What comes after each part, made once; a forwarded packet's nexthop travels in its Visit, so
    // that no closure is made per packet.
    private final Consumer<Visit> routeInput = this::routeInput;
    private final Consumer<Visit> inputDone = this::inputDone;
    private final Consumer<Visit> transmitStage = v -> {
        ConntrackLayer.commit(v);
        transmit(v, v.nexthop);
    };
    private final Consumer<Visit> intoLoopback = v -> {
        ConntrackLayer.commit(v);
        v.in = RoutingPolicy.LOOPBACK;
        v.out = null;
        localIn(v);
    };
    private final BranchAction forwardBranch = (v, nexthop, index) -> forward(v, nexthop);
    private final Consumer<Visit> outputRoute = this::outputRoute;
    private final BranchAction outputBranch = (v, nexthop, index) -> output(v, nexthop.device(), index, nexthop);
    private final Consumer<Visit> outputDone = this::outputDone;
    private final BranchAction reroutedBranch = (v, nexthop, index) -> {
        v.out = nexthop.device();
        afterOutput(v, nexthop);
    };

    /** @param followAllBranches follow every alternative; false picks one per flow by Periscope's documented hash */
    public Dataplane(CompiledNetwork net, boolean followAllBranches) {
        this(net, followAllBranches, NexthopChoice.DOCUMENTED_HASH);
    }

    /** One path per flow, each route's nexthop picked by {@code choice}. */
    public Dataplane(CompiledNetwork net, NexthopChoice choice) {
        this(net, false, choice);
    }

    private Dataplane(CompiledNetwork net, boolean followAllBranches, NexthopChoice choice) {
        this.net = net;
        this.followAll = followAllBranches;
        this.choice = choice;
        this.netfilter = new NetfilterPass(followAllBranches, net);
        this.encapsulator = new Encapsulator(net);
        this.decapsulator = new Decapsulator(net);
    }

    /**
     * Sends {@code packet} from a socket of host {@code host} and follows it to every end.
     *
     * @param selectSource choose the source address as the kernel does for an unbound socket (the
     *                     packet's source is ignored then)
     * @param conntrack    the connections that already exist (empty for a forward packet, the forward
     *                     branch's for its reply)
     * @param choices      alternatives already taken (the forward branch's, for its reply)
     * @param segment      which TCP segment a TCP packet is (a forward packet's SYN, its reply's SYN-ACK)
     * @param chains       told of every netfilter chain the packet enters; null when nobody asks
     */
    public void send(int host, Packet packet, TcpSegment segment, boolean selectSource, ConntrackState conntrack, List<String> choices,
                     ChainObserver chains, Consumer<Ending> endings) {
        send(host, packet, segment, selectSource, false, conntrack, choices, chains, endings);
    }

    /**
     * As {@link #send(int, Packet, TcpSegment, boolean, ConntrackState, List, ChainObserver, Consumer)};
     * {@code socketFragments} says how the sending socket treats a packet larger than its device's MTU:
     * true fragments it there (Linux's default, IP_PMTUDISC_WANT, what an echo server's answer does),
     * false refuses to send it (IP_PMTUDISC_DO, {@code ping -M do}: EMSGSIZE).
     */
    public void send(int host, Packet packet, TcpSegment segment, boolean selectSource, boolean socketFragments, ConntrackState conntrack,
                     List<String> choices, ChainObserver chains, Consumer<Ending> endings) {
        send(host, packet, segment, selectSource, socketFragments, conntrack, choices, chains, true, endings);
    }

    /**
     * As {@link #send(int, Packet, TcpSegment, boolean, boolean, ConntrackState, List, ChainObserver, Consumer)};
     * with {@code record} false the walk is the same but keeps no story: each {@link Ending} has no hops
     * and no choices, and its reason may lack what only the hops tell (the hosts of a loop). For those
     * who only count how paths end.
     */
    public void send(int host, Packet packet, TcpSegment segment, boolean selectSource, boolean socketFragments, ConntrackState conntrack,
                     List<String> choices, ChainObserver chains, boolean record, Consumer<Ending> endings) {
        send(host, packet, segment, selectSource, socketFragments, conntrack, choices, chains, record, null, endings);
    }

    /**
     * As {@link #send(int, Packet, TcpSegment, boolean, boolean, ConntrackState, List, ChainObserver, boolean, Consumer)};
     * a walk that keeps no story and follows every branch adds the count {@code memo} (when not null)
     * holds for a suffix of the flow counted before in the same state, instead of walking it again. The
     * caller counts the endings that are walked into {@code memo}; {@code chains} is told of a suffix's
     * chains when it is walked, not when its count is reused.
     */
    public void send(int host, Packet packet, TcpSegment segment, boolean selectSource, boolean socketFragments, ConntrackState conntrack,
                     List<String> choices, ChainObserver chains, boolean record, SuffixMemo memo, Consumer<Ending> endings) {
        Visit v = new Visit();
        v.record = record;
        v.socketFragments = socketFragments;
        v.segment = segment;
        v.sink = endings;
        v.observer = chains;
        v.conntrack = conntrack;
        v.hops = Trail.empty();
        v.ctLayers = Trail.empty();
        v.choices = Trail.<String>empty().addAll(choices);
        v.hopCount = 1;
        v.host = net.host(host);
        v.hopArrive = packet;
        v.steps = new HopSteps();
        v.origin = packet;
        v.packet = packet;
        if (memo != null && followAll && !record) {
            v.memo = memo;
            // The walk reads this host's conntrack entries: so do the suffixes it is part of.
            memo.through(host);
        }
        localOut(v, packet, null, selectSource, null);
    }

    // ---------------------------------------------------------------- suffixes counted before

    /**
     * {@code v} arrives at {@code port} in a counting walk: the count of the suffix from here is added
     * from the memo when the flow reached this state before, else the suffix is walked and its count kept.
     */
    private void countedArrival(Visit v, Wiring.Port port) {
        SuffixMemo memo = v.memo;
        SuffixMemo.Key key = memo.key(v, port);
        ConntrackState before = v.conntrack;
        if (memo.reuse(key, before)) {
            return;
        }
        long[] counted = memo.open(port.host());
        arriveHere(v, port);
        memo.close(key, before, counted);
    }

    // ---------------------------------------------------------------- locally generated packets

    private void localOut(Visit v, Packet packet, Tunnel tunnel, boolean selectSource, String oif) {
        if (++v.passes > MAX_PASSES) {
            Endings.end(v, Disposition.DROPPED, "routing loop: " + v.host.name + " keeps handing the packet to itself");
            return;
        }
        v.in = null;
        v.out = null;
        v.packet = packet;
        v.tunnel = tunnel;
        if (!selectSource) {
            localOutRouted(v, oif);
            return;
        }
        // connect() routes once without a source to pick one, then routes again with it.
        RouteDecision first = v.host.routing.lookup(packet.dst(), Ipv4Address.ANY, v.mark, RoutingPolicy.LOOPBACK, oif);
        Set<Ipv4Address> sources = new LinkedHashSet<>();
        switch (first) {
            case RouteDecision.Local l -> sources.add(l.address());
            case RouteDecision.Forward f -> {
                for (CompiledNexthop nh : f.nexthops()) {
                    Optional<Ipv4Address> routeSource = f.route().route().source();
                    Ipv4Address s = routeSource.isPresent() ? routeSource.get() : v.host.egress(nh).firstAddress();
                    sources.add(s == null ? Ipv4Address.ANY : s);
                }
            }
            case RouteDecision.Reject r -> {
                routeFailure(v, r);
                return;
            }
            case RouteDecision.NoRoute n -> {
                noRoute(v, n);
                return;
            }
        }
        int i = 0;
        for (Ipv4Address source : sources) {
            Visit b = ++i == sources.size() ? v : v.copy();
            b.packet = b.packet.withSource(source, b.packet.sport());
            b.hopArrive = b.packet;
            b.origin = b.packet;
            localOutRouted(b, oif);
        }
    }

    private void localOutRouted(Visit v, String oif) {
        ConntrackLayer.lookup(v, true);
        v.oif = oif;
        netfilter.run(v, NetfilterPass.Part.RAW_OUTPUT, outputRoute);
    }

    /** Routing of a locally generated packet, after raw OUTPUT. */
    private void outputRoute(Visit v) {
        RouteDecision d = v.host.routing.lookup(v.packet.dst(), v.packet.src(), v.mark, RoutingPolicy.LOOPBACK, v.oif);
        v.routedDst = v.packet.dst();
        v.routedMark = v.mark;
        if (d instanceof RouteDecision.Forward f) {
            branch(v, f, false, outputBranch);
        } else if (d instanceof RouteDecision.Local l) {
            routeStep(v, l);
            output(v, RoutingPolicy.LOOPBACK, 0, null);
        } else {
            nowhere(v, d);
        }
    }

    /**
     * OUTPUT chains, then POSTROUTING; {@code nexthop} null means the destination is local (loopback).
     * What the first routing decision saw stays in the Visit for {@link #outputDone}.
     */
    private void output(Visit v, String device, int branchIndex, CompiledNexthop nexthop) {
        if (nexthop != null && !Mtu.fitsOut(v, device)) {
            return;
        }
        if (v.tunnel == null && v.mss == 0 && v.packet.protocol() == Protocol.TCP && v.segment != TcpSegment.ACK) {
            v.mss = Mtu.advertisedMss(nexthop != null ? v.host.egress(nexthop).mtu() : v.host.mtu(device));
        }
        v.out = device;
        v.branchIndex = branchIndex;
        v.nexthop = nexthop;
        netfilter.run(v, NetfilterPass.Part.OUTPUT, outputDone);
    }

    private void outputDone(Visit v) {
        if (v.packet.dst().equals(v.routedDst) && v.mark == v.routedMark) {
            afterOutput(v, v.nexthop);
            return;
        }
        // ip_route_me_harder: OUTPUT changed what routing depends on, so route again. The first
        // lookup's alternatives no longer matter, so only its first branch goes on.
        if (v.branchIndex != 0) {
            return;
        }
        RouteDecision d = v.host.routing.lookup(v.packet.dst(), v.packet.src(), v.mark, RoutingPolicy.LOOPBACK, v.oif);
        switch (d) {
            case RouteDecision.Local l -> {
                routeStep(v, l);
                v.out = RoutingPolicy.LOOPBACK;
                afterOutput(v, null);
            }
            case RouteDecision.Forward f -> branch(v, f, false, reroutedBranch);
            case RouteDecision.Reject r -> routeFailure(v, r);
            case RouteDecision.NoRoute n -> noRoute(v, n);
        }
    }

    private void afterOutput(Visit v, CompiledNexthop nexthop) {
        if (nexthop != null) {
            postrouting(v, nexthop);
            return;
        }
        netfilter.run(v, NetfilterPass.Part.POSTROUTING, intoLoopback);
    }

    // ---------------------------------------------------------------- arriving packets

    private void arrive(Visit v, Wiring.Port port) {
        SuffixMemo memo = v.memo;
        if (memo != null) {
            if (memo.folding()) {
                memo.arriving(v.host.id, net.host(port.host()).id, v.packet, v.tunnel);
            }
            CableSegments segments = memo.segments();
            if (memo.keeps(v)) {
                if (segments != null && segments.walking()) {
                    // A reply leaves a segment: what follows is the flow's own, not the segment's.
                    segments.exit(port, v);
                    long[] before = segments.suspend(memo);
                    countedArrival(v, port);
                    segments.resume(memo, before);
                    return;
                }
                countedArrival(v, port);
                return;
            }
            if (segments != null) {
                if (segments.begins(v, memo.forward())) {
                    segmentArrival(v, port, memo, segments);
                    return;
                }
                segments.arrived(port.host());
            }
            // The suffixes being counted read this host's entries too, not only those they began on.
            memo.through(port.host());
        }
        arriveHere(v, port);
    }

    /**
     * A forward packet arrives by a cable in a counting walk that shares segments with other flows:
     * when one of them reached this state, its segment's counts are added and only its exits (replies
     * arriving back by a cable) are walked on, with this flow's conntrack state and expected answer;
     * else the segment is walked and kept.
     */
    private void segmentArrival(Visit v, Wiring.Port port, SuffixMemo memo, CableSegments segments) {
        segments.nested();
        CableSegments.Key key = segments.key(v, port);
        CableSegments.Segment known = segments.known(key, v.conntrack, memo);
        if (known == null) {
            segments.open(key, v.conntrack, port.host(), memo);
            arriveHere(v, port);
            segments.close(memo);
            return;
        }
        memo.add(known.delivered(), known.paths());
        if (v.observer != null) {
            for (CableSegments.Entered c : known.chains()) {
                v.observer.entered(c.host(), c.table(), c.chain(), c.packet());
            }
        }
        // The replies of a delivery are expected to answer the packet as the flow's sender sent it.
        Packet expected = memo.expecting(v.origin.answer());
        for (CableSegments.Exit exit : known.exits()) {
            Visit e = exit.visit().copy();
            e.conntrack = v.conntrack.withAll(exit.made());
            e.memo = memo;
            e.sink = memo.replies();
            e.observer = v.observer;
            arrive(e, exit.port());
        }
        memo.expecting(expected);
    }

    private void arriveHere(Visit v, Wiring.Port port) {
        v.host = net.host(port.host());
        v.hopIn = port.iface();
        v.hopArrive = v.packet;
        v.hopOut = null;
        v.hopDepart = null;
        v.steps.clear();
        v.ctLayers = Trail.empty();
        v.ctState = null;
        // The mark lives in the sk_buff of one namespace; a veth or bridge crossing starts without it.
        v.mark = 0;
        // A backstop: every forward decrements the TTL, so the kernel ends loops first (see forward).
        if (++v.hopCount - 1 > MAX_HOPS) {
            Endings.end(v, Disposition.DROPPED, "routing loop: more than " + MAX_HOPS + " hops");
            return;
        }
        if (v.host.logical != null) {
            logicalRouter(v, port.iface());
            return;
        }
        receive(v, port.iface(), v.packet, v.tunnel);
    }

    // ---------------------------------------------------------------- OVN logical routers

    /**
     * An OVN logical router: conntrack (for its load balancers' translations), a new connection's
     * load balancing, then its policies and routes; it has no netfilter and delivers nothing itself.
     */
    private void logicalRouter(Visit v, String inPort) {
        v.in = inPort;
        v.out = null;
        // OVN's own conntrack zone: its TCP states (ct.inv) are not modelled, only its translations.
        ConntrackLayer.lookup(v, false);
        if (!v.isNew) {
            Nat.stored(v, true);
            Nat.stored(v, false);
            logicalForward(v);
            return;
        }
        LogicalRouterPipeline.Balanced balanced = v.host.logical.loadBalancer(inPort, v.packet);
        if (balanced == null) {
            logicalForward(v);
            return;
        }
        LoadBalancer lb = balanced.loadBalancer();
        List<LoadBalancer.Backend> backends = lb.backends();
        if (backends.isEmpty()) {
            // OVN answers a VIP without backends with a TCP reset or ICMP unreachable.
            Endings.end(v, Disposition.UNREACHABLE, "load balancer " + lb.name() + " (" + balanced.group() + ") on " + v.host.name
                    + " has no backends for " + lb.vip() + ":" + lb.port());
            return;
        }
        RuleRef ref = new RuleRef("ovn", balanced.group(), lb.name() + " " + lb.text());
        if (!followAll) {
            int i = Math.floorMod(MultipathHash.hash(v.packet), backends.size());
            balance(v, ref, backends, i);
            return;
        }
        for (int i = 0; i < backends.size(); i++) {
            balance(i == backends.size() - 1 ? v : v.copy(), ref, backends, i);
        }
    }

    private void balance(Visit v, RuleRef ref, List<LoadBalancer.Backend> backends, int i) {
        LoadBalancer.Backend backend = backends.get(i);
        if (backends.size() > 1) {
            if (v.record) {
                v.chose(ref.chain() + " " + ref.rule().substring(0, ref.rule().indexOf(' ')) + ": backend " + (i + 1)
                        + " of " + backends.size() + " (" + backend + ")");
            }
        }
        Nat.dnat(v, Optional.of(ref), v.packet.withDestination(backend.address(),
                v.packet.protocol().hasPorts() ? backend.port() : v.packet.dport()));
        ConntrackLayer.commit(v);
        logicalForward(v);
    }

    private void logicalForward(Visit v) {
        if (v.packet.ttl() <= 1) {
            Endings.end(v, Disposition.DROPPED, "TTL exceeded at " + v.host.name + " (ttl " + v.packet.ttl() + ")" + loop(v));
            return;
        }
        v.packet = v.packet.withTtl(v.packet.ttl() - 1);
        switch (v.host.logical.route(v.packet)) {
            case LogicalRouterPipeline.Decision.Drop d -> {
                v.step(new Step.Route(d.stage(), d.entry(), Optional.empty(), "", v.packet));
                Endings.end(v, Disposition.DROPPED, "dropped by " + d.stage() + " '" + d.entry() + "' on " + v.host.name);
            }
            case LogicalRouterPipeline.Decision.NoRoute n ->
                    Endings.end(v, Disposition.NO_ROUTE, "no route to " + v.packet.dst() + " on " + v.host.name + ": " + n.why());
            case LogicalRouterPipeline.Decision.Forward f -> {
                String port = f.port().name();
                Wiring.Delivery delivery = net.wiring.send(v.host.index, v.host.name, port, f.nexthop());
                String to = delivery instanceof Wiring.Delivery.Reached r ? ", to " + reachedName(r) : "";
                v.step(new Step.Route(f.stage(), f.entry() + " (port " + port + " on " + f.port().logicalSwitch() + to + ")",
                        f.direct() ? Optional.empty() : Optional.of(f.nexthop()), port, v.packet));
                if (delivery instanceof Wiring.Delivery.Reached r) {
                    Endings.finishHop(v, port, true);
                    arrive(v, r.port());
                } else if (delivery instanceof Wiring.Delivery.Failed failed) {
                    Endings.end(v, Disposition.UNREACHABLE, failed.reason());
                }
            }
        }
    }

    /** The element a frame reached: a logical router by its name, a host with the interface it came in by. */
    private String reachedName(Wiring.Delivery.Reached reached) {
        CompiledHost host = net.host(reached.port().host());
        return host.logical != null ? host.name : host.name + " " + reached.port().iface();
    }

    private void receive(Visit v, String in, Packet packet, Tunnel tunnel) {
        if (++v.passes > MAX_PASSES) {
            Endings.end(v, Disposition.DROPPED, "routing loop: " + v.host.name + " keeps handing the packet to itself");
            return;
        }
        v.in = in;
        v.out = null;
        v.packet = packet;
        v.tunnel = tunnel;
        ConntrackLayer.lookup(v, true);
        netfilter.run(v, NetfilterPass.Part.PREROUTING, routeInput);
    }

    private void routeInput(Visit v) {
        RouteDecision d = v.host.routing.lookup(v.packet.dst(), v.packet.src(), v.mark, v.in, null);
        if ((d instanceof RouteDecision.Forward || d instanceof RouteDecision.Local) && !ReversePathFilter.admits(v)) {
            return;
        }
        if (d instanceof RouteDecision.Forward f) {
            if (!v.host.forwards) {
                Endings.end(v, Disposition.DROPPED, v.host.name + (v.host.pod ? " is a pod and" : "")
                        + " does not forward packets (ip_forward=0); " + v.packet.dst() + " is not its own address");
                return;
            }
            branch(v, f, true, forwardBranch);
        } else if (d instanceof RouteDecision.Local l) {
            routeStep(v, l);
            localIn(v);
        } else {
            nowhere(v, d);
        }
    }

    private void forward(Visit v, CompiledNexthop nexthop) {
        if (v.packet.ttl() <= 1) {
            Endings.end(v, Disposition.DROPPED, "TTL exceeded at " + v.host.name + " (ttl " + v.packet.ttl() + ")" + loop(v));
            return;
        }
        // ip_forward checks the size against the route's device before the FORWARD chains run.
        if (!Mtu.fitsOut(v, nexthop.device())) {
            return;
        }
        v.packet = v.packet.withTtl(v.packet.ttl() - 1);
        v.out = nexthop.device();
        v.nexthop = nexthop;
        netfilter.run(v, NetfilterPass.Part.FORWARD_AND_POSTROUTING, transmitStage);
    }

    /** Names the hosts a path keeps coming back to, when it does: why a TTL ran out. */
    private static String loop(Visit v) {
        List<Hop> hops = v.hops.toList();
        Set<String> seen = new java.util.HashSet<>();
        Set<String> repeated = new java.util.HashSet<>();
        for (Hop hop : hops) {
            if (!seen.add(hop.node() + " " + hop.in().orElse(""))) {
                repeated.add(hop.node().toString());
            }
        }
        Set<String> inOrder = new LinkedHashSet<>();
        for (Hop hop : hops) {
            if (repeated.contains(hop.node().toString())) {
                inOrder.add(hop.node().toString());
            }
        }
        return inOrder.isEmpty() ? "" : ": routing loop through " + String.join(", ", inOrder);
    }

    private void postrouting(Visit v, CompiledNexthop nexthop) {
        v.nexthop = nexthop;
        netfilter.run(v, NetfilterPass.Part.POSTROUTING, transmitStage);
    }

    private void localIn(Visit v) {
        netfilter.run(v, NetfilterPass.Part.INPUT, inputDone);
    }

    /** The end of INPUT: a cable's datagram goes to its device, anything else to a socket of the host. */
    private void inputDone(Visit v) {
        ConntrackLayer.commit(v);
        if (v.tunnel != null) {
            switch (decapsulator.entry(v)) {
                case CableEntry.Unwrapped u -> enterFrom(v, u.device(), u.tunnel());
                case CableEntry.Refused r -> Endings.end(v, r.disposition(), r.reason());
            }
            return;
        }
        if (v.packet.length() != Packet.SMALL) {
            // Fragments are reassembled before the socket reads them: it gets the whole datagram.
            v.packet = v.packet.withLength(v.origin.length(), v.packet.df());
        }
        v.step(new Step.Deliver(v.host.pod ? "pod process" : "host process", v.packet));
        Endings.end(v, Disposition.DELIVERED, null);
    }

    // ---------------------------------------------------------------- leaving a host

    private void transmit(Visit v, CompiledNexthop nexthop) {
        Ipv4Address next = nexthop.nextHopFor(v.packet.dst());
        CompiledHost.Egress egress = v.host.egress(nexthop);
        CableExit exit = encapsulator.exit(v, nexthop, egress, next);
        if (exit instanceof CableExit.Wrapped w) {
            localOut(v, w.outer(), w.tunnel(), false, w.oif());
            return;
        }
        if (exit instanceof CableExit.Refused r) {
            Endings.end(v, r.disposition(), r.reason());
            return;
        }
        Wiring.Delivery delivery = egress.peer() != null ? egress.peer()
                : net.wiring.send(egress.link(), v.host.index, v.host.name, nexthop.device(), next);
        if (delivery instanceof Wiring.Delivery.Reached r) {
            if (Mtu.lostOnTheWire(v, nexthop.device(), net.host(r.port().host()), r.port())) {
                return;
            }
            Endings.finishHop(v, egress);
            arrive(v, r.port());
        } else if (delivery instanceof Wiring.Delivery.Failed f) {
            Endings.end(v, Disposition.UNREACHABLE, f.reason() + encapsulator.clearTextNote(v));
        }
    }

    /** The inner packet a cable took out enters the host again, from {@code device}, as the same hop's new layer. */
    private void enterFrom(Visit v, String device, Tunnel tunnel) {
        v.hopIn = device;
        v.hopArrive = tunnel.inner();
        receive(v, device, tunnel.inner(), tunnel.innerTunnel());
    }

    // ---------------------------------------------------------------- routing helpers

    @FunctionalInterface
    private interface BranchAction {
        void go(Visit v, CompiledNexthop nexthop, int index);
    }

    /**
     * Records the route step for every nexthop taken and continues each as its own branch.
     *
     * @param forwarded whether the host forwards the packet rather than sends it from a socket (the
     *                  kernel hashes the two differently under policy 3)
     */
    private void branch(Visit v, RouteDecision.Forward f, boolean forwarded, BranchAction next) {
        List<CompiledNexthop> nexthops = f.nexthops();
        int n = nexthops.size();
        if (n == 0) {
            noRoute(v, new RouteDecision.NoRoute(List.of(f.table())));
            return;
        }
        if (n == 1) {
            if (!followAll && f.route().route().nexthopId().isPresent()) {
                // A group of one still hashes each packet into a bucket: a choice that keeps bucket
                // state must see it (a resilient group left with one gateway keeps its buckets busy).
                choice.choose(v.host.id, v.host.multipathHash, forwarded, f.route(), nexthops, v.packet);
            }
            routeStep(v, f, nexthops.getFirst());
            next.go(v, nexthops.getFirst(), 0);
            return;
        }
        if (!followAll) {
            int i = choice.choose(v.host.id, v.host.multipathHash, forwarded, f.route(), nexthops, v.packet);
            if (v.record) {
                v.chose(choice(f, nexthops, i));
            }
            routeStep(v, f, nexthops.get(i));
            next.go(v, nexthops.get(i), i);
            return;
        }
        for (int i = 0; i < n; i++) {
            Visit b = i == n - 1 ? v : v.copy();
            // Each branch is walked to its ends before the next starts, and no table's outcome is
            // pending at a route: the branches may start their tables with one run object.
            b.run = v.run;
            if (b.record) {
                b.chose(choice(f, nexthops, i));
            }
            routeStep(b, f, nexthops.get(i));
            next.go(b, nexthops.get(i), i);
        }
    }

    private static String choice(RouteDecision.Forward f, List<CompiledNexthop> nexthops, int i) {
        List<CompiledNexthop> all = f.route().nexthops();
        // Bound to an underlay device, a lookup may offer only some of the route's nexthops.
        int index = nexthops == all ? i : all.indexOf(nexthops.get(i));
        return f.route().choice(index);
    }

    private static void routeStep(Visit v, RouteDecision.Forward f, CompiledNexthop nh) {
        v.step(new Step.Route(f.table(), f.route().text(), nh.via(), nh.device(), v.packet));
    }

    private static void routeStep(Visit v, RouteDecision.Local l) {
        v.step(new Step.Route("local", l.text(), Optional.empty(), l.device(), v.packet));
    }

    /** A decision that sends the packet nowhere: a reject route, or no route at all. */
    private void nowhere(Visit v, RouteDecision d) {
        switch (d) {
            case RouteDecision.Reject r -> routeFailure(v, r);
            case RouteDecision.NoRoute n -> noRoute(v, n);
            case RouteDecision.Forward f -> throw new IllegalStateException("a forward decision goes somewhere: " + f);
            case RouteDecision.Local l -> throw new IllegalStateException("a local decision goes somewhere: " + l);
        }
    }

    private void routeFailure(Visit v, RouteDecision.Reject r) {
        v.step(new Step.Route(r.table(), r.route().text(), Optional.empty(), "", v.packet));
        String where = "route '" + r.route().text() + "' in table " + r.table() + " on " + v.host.name
                + r.route().route().reason().map(reason -> ": " + reason).orElse("");
        if (r.route().type() == RouteType.BLACKHOLE) {
            Endings.end(v, Disposition.DROPPED, "dropped by " + where);
        } else {
            // The kernel answers EHOSTUNREACH (ICMP host unreachable for a forwarded packet).
            Endings.end(v, Disposition.UNREACHABLE, "unreachable by " + where);
        }
    }

    private void noRoute(Visit v, RouteDecision.NoRoute n) {
        Endings.end(v, Disposition.NO_ROUTE, "no route to " + v.packet.dst() + " on " + v.host.name
                + (n.tablesTried().isEmpty() ? "" : " (tables " + String.join(", ", n.tablesTried()) + ")"));
    }
}
