package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.RouteType;
import io.periscope.simulator.conntrack.ConnTuple;
import io.periscope.simulator.conntrack.Connection;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.hash.NatAddressChoice;
import io.periscope.simulator.link.VxlanFabric;
import io.periscope.simulator.link.Wiring;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.netfilter.CompiledChain;
import io.periscope.simulator.netfilter.CompiledRule;
import io.periscope.simulator.netfilter.Hook;
import io.periscope.simulator.netfilter.Ruleset;
import io.periscope.simulator.netfilter.TableRun;
import io.periscope.simulator.netfilter.Verdict;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.routing.MultipathHash;
import io.periscope.simulator.routing.NexthopChoice;
import io.periscope.simulator.routing.RouteDecision;
import io.periscope.simulator.routing.RoutingPolicy;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.RuleRef;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.ovn.LogicalRouterPipeline;
import io.periscope.plan.ovn.LoadBalancer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Walks packets through a {@link CompiledNetwork} in the kernel's order. Arriving: PREROUTING (raw,
 * conntrack, mangle, nat), policy routing, then either INPUT (mangle, filter, nat) and delivery, or
 * FORWARD (TTL, mangle, filter) and POSTROUTING (mangle, nat, conntrack confirm) out of an interface.
 * Locally generated: routing (which picks the source address), OUTPUT (raw, conntrack, mangle, nat,
 * filter), rerouting when OUTPUT changed the destination or mark, POSTROUTING.
 *
 * <p>A cable wraps the packet into a UDP packet, which the same host then sends like any locally
 * generated packet; at the receiving host that UDP packet is delivered locally (after INPUT) and the
 * inner packet enters the host again. A VXLAN device as the output sends from the device's
 * {@code local} address to the FDB's destination, and the device with the datagram's port and VNI takes
 * it in. A WireGuard device as the output encrypts for the peer whose allowed IPs hold the destination;
 * the receiving device checks the inner source against that peer's allowed IPs. An IPsec outbound
 * policy covering the packet, whatever the output device, encrypts it into ESP-in-UDP to the
 * connection's remote end, which must hold the other end of the SA.
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
    /** Linux's default ephemeral port range, from which VXLAN picks outer source ports. */
    private static final int EPHEMERAL_LOW = 32768;
    private static final int EPHEMERAL_HIGH = 60999;

    private final CompiledNetwork net;
    private final boolean followAll;
    private final NexthopChoice choice;

    /** One table's built-in chain at one hook. */
    private record Stage(Table table, Hook hook, int slot, boolean nat, boolean destinationHook) {

        Stage(Table table, Hook hook) {
            this(table, hook, Ruleset.slot(table, hook), table == Table.NAT, hook == Hook.PREROUTING || hook == Hook.OUTPUT);
        }
    }

    // The tables of each part of the kernel's path, in its order (see pass).
    private static final Stage[] PREROUTING = {new Stage(Table.RAW, Hook.PREROUTING), new Stage(Table.MANGLE, Hook.PREROUTING),
            new Stage(Table.NAT, Hook.PREROUTING)};
    private static final Stage[] INPUT = {new Stage(Table.MANGLE, Hook.INPUT), new Stage(Table.FILTER, Hook.INPUT),
            new Stage(Table.NAT, Hook.INPUT)};
    private static final Stage[] FORWARD_AND_POSTROUTING = {new Stage(Table.MANGLE, Hook.FORWARD),
            new Stage(Table.FILTER, Hook.FORWARD), new Stage(Table.MANGLE, Hook.POSTROUTING), new Stage(Table.NAT, Hook.POSTROUTING)};
    private static final Stage[] POSTROUTING = {new Stage(Table.MANGLE, Hook.POSTROUTING), new Stage(Table.NAT, Hook.POSTROUTING)};
    private static final Stage[] RAW_OUTPUT = {new Stage(Table.RAW, Hook.OUTPUT)};
    private static final Stage[] OUTPUT = {new Stage(Table.MANGLE, Hook.OUTPUT), new Stage(Table.NAT, Hook.OUTPUT),
            new Stage(Table.FILTER, Hook.OUTPUT)};

    // What comes after each part, made once; a forwarded packet's nexthop travels in its Visit, so
    // that no closure is made per packet.
    private final Consumer<Visit> routeInput = this::routeInput;
    private final Consumer<Visit> inputDone = this::inputDone;
    private final Consumer<Visit> transmitStage = v -> {
        commit(v);
        transmit(v, v.nexthop);
    };
    private final Consumer<Visit> intoLoopback = v -> {
        commit(v);
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
        Visit v = new Visit();
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
        localOut(v, packet, null, selectSource, null);
    }

    // ---------------------------------------------------------------- locally generated packets

    private void localOut(Visit v, Packet packet, Tunnel tunnel, boolean selectSource, String oif) {
        if (++v.passes > MAX_PASSES) {
            end(v, Disposition.DROPPED, "routing loop: " + v.host.name + " keeps handing the packet to itself");
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
                    Ipv4Address s = f.route().route().source().orElse(v.host.firstAddress(nh.device()));
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
        conntrackLookup(v, true);
        v.oif = oif;
        pass(v, RAW_OUTPUT, 0, outputRoute);
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
        if (nexthop != null && !fitsOut(v, device)) {
            return;
        }
        if (v.tunnel == null && v.mss == 0 && v.packet.protocol() == Protocol.TCP && v.segment != TcpSegment.ACK) {
            v.mss = advertisedMss(v.host.mtu(device));
        }
        v.out = device;
        v.branchIndex = branchIndex;
        v.nexthop = nexthop;
        pass(v, OUTPUT, 0, outputDone);
    }

    /**
     * The MSS a Linux socket offers in its SYN or SYN-ACK: the route's MTU (the output device's, as no
     * route of a plan has an {@code mtu} metric) less 40 bytes of IPv4 and TCP headers
     * ({@code ipv4_default_advmss}), at least {@code net.ipv4.route.min_adv_mss} (256) and at most
     * 65495.
     */
    /**
     * What {@code TCPMSS --clamp-mss-to-pmtu} makes of a SYN's MSS on this host: the smaller of the
     * output route's MTU and the MTU of the route back to the packet's source
     * ({@code tcpmss_reverse_mtu}), less 40 bytes of IPv4 and TCP headers; 0 before routing chose a
     * device (PREROUTING), where the kernel's rule would have no route to read.
     */
    private static int clampedMss(Visit v) {
        if (v.out == null) {
            return 0;
        }
        int mtu = v.host.mtu(v.out);
        if (v.host.routing.lookup(v.packet.src(), Ipv4Address.ANY, 0, RoutingPolicy.LOOPBACK, null) instanceof RouteDecision.Forward back
                && !back.nexthops().isEmpty()) {
            mtu = Math.min(mtu, v.host.mtu(back.nexthops().getFirst().device()));
        }
        return mtu - 40;
    }

    static int advertisedMss(int mtu) {
        return Math.min(Math.max(mtu - 40, 256), 65535 - 40);
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
        pass(v, POSTROUTING, 0, intoLoopback);
    }

    // ---------------------------------------------------------------- arriving packets

    private void arrive(Visit v, Wiring.Port port) {
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
            end(v, Disposition.DROPPED, "routing loop: more than " + MAX_HOPS + " hops");
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
        conntrackLookup(v, false);
        if (!v.isNew) {
            storedNat(v, true);
            storedNat(v, false);
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
            end(v, Disposition.UNREACHABLE, "load balancer " + lb.name() + " (" + balanced.group() + ") on " + v.host.name
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
            v.choices = v.choices.add(ref.chain() + " " + ref.rule().substring(0, ref.rule().indexOf(' ')) + ": backend " + (i + 1)
                    + " of " + backends.size() + " (" + backend + ")");
        }
        Packet q = v.packet.withDestination(backend.address(), v.packet.protocol().hasPorts() ? backend.port() : v.packet.dport());
        v.dnatDone |= !q.sameFlow(v.packet);
        v.packet = q;
        v.step(new Step.Dnat(Optional.of(ref), q));
        commit(v);
        logicalForward(v);
    }

    private void logicalForward(Visit v) {
        if (v.packet.ttl() <= 1) {
            end(v, Disposition.DROPPED, "TTL exceeded at " + v.host.name + " (ttl " + v.packet.ttl() + ")" + loop(v));
            return;
        }
        v.packet = v.packet.withTtl(v.packet.ttl() - 1);
        switch (v.host.logical.route(v.packet)) {
            case LogicalRouterPipeline.Decision.Drop d -> {
                v.step(new Step.Route(d.stage(), d.entry(), Optional.empty(), "", v.packet));
                end(v, Disposition.DROPPED, "dropped by " + d.stage() + " '" + d.entry() + "' on " + v.host.name);
            }
            case LogicalRouterPipeline.Decision.NoRoute n ->
                    end(v, Disposition.NO_ROUTE, "no route to " + v.packet.dst() + " on " + v.host.name + ": " + n.why());
            case LogicalRouterPipeline.Decision.Forward f -> {
                String port = f.port().name();
                Wiring.Delivery delivery = net.wiring.send(v.host.index, v.host.name, port, f.nexthop());
                String to = delivery instanceof Wiring.Delivery.Reached r ? ", to " + reachedName(r) : "";
                v.step(new Step.Route(f.stage(), f.entry() + " (port " + port + " on " + f.port().logicalSwitch() + to + ")",
                        f.direct() ? Optional.empty() : Optional.of(f.nexthop()), port, v.packet));
                if (delivery instanceof Wiring.Delivery.Reached r) {
                    finishHop(v, port, true);
                    arrive(v, r.port());
                } else if (delivery instanceof Wiring.Delivery.Failed failed) {
                    end(v, Disposition.UNREACHABLE, failed.reason());
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
            end(v, Disposition.DROPPED, "routing loop: " + v.host.name + " keeps handing the packet to itself");
            return;
        }
        v.in = in;
        v.out = null;
        v.packet = packet;
        v.tunnel = tunnel;
        conntrackLookup(v, true);
        pass(v, PREROUTING, 0, routeInput);
    }

    private void routeInput(Visit v) {
        RouteDecision d = v.host.routing.lookup(v.packet.dst(), v.packet.src(), v.mark, v.in, null);
        if ((d instanceof RouteDecision.Forward || d instanceof RouteDecision.Local) && !reversePathValid(v)) {
            return;
        }
        if (d instanceof RouteDecision.Forward f) {
            if (!v.host.forwards) {
                end(v, Disposition.DROPPED, v.host.name + (v.host.pod ? " is a pod and" : "")
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
            end(v, Disposition.DROPPED, "TTL exceeded at " + v.host.name + " (ttl " + v.packet.ttl() + ")" + loop(v));
            return;
        }
        // ip_forward checks the size against the route's device before the FORWARD chains run.
        if (!fitsOut(v, nexthop.device())) {
            return;
        }
        v.packet = v.packet.withTtl(v.packet.ttl() - 1);
        v.out = nexthop.device();
        v.nexthop = nexthop;
        pass(v, FORWARD_AND_POSTROUTING, 0, transmitStage);
    }

    // ---------------------------------------------------------------- sizes and MTUs

    /**
     * Whether the packet may leave by {@code device}: it fits the device's MTU, or it may be fragmented
     * (no Don't Fragment, or the sending socket fragments its own), in which case it goes on as
     * fragments. Otherwise the packet ends here: a socket's own with EMSGSIZE, a forwarded one (or a
     * tunnel's outer packet that copied Don't Fragment) with ICMP fragmentation needed back to its source.
     */
    private boolean fitsOut(Visit v, String device) {
        int mtu = v.host.mtu(device);
        if (!v.packet.exceeds(mtu)) {
            return true;
        }
        boolean ownSocket = v.in == null && v.tunnel == null;
        if (!v.packet.df() || (ownSocket && v.socketFragments)) {
            Packet largest = v.packet.withLength(largestFragment(mtu), false);
            v.step(new Step.Fragment(device, mtu, largest));
            v.packet = largest;
            return true;
        }
        if (ownSocket) {
            end(v, Disposition.DROPPED, "the socket refuses to send " + v.packet.length() + " bytes with Don't Fragment: "
                    + device + "'s MTU is " + mtu + " (EMSGSIZE, message too long)");
        } else {
            // ICMP fragmentation needed is a destination unreachable (type 3, code 4), as the sender sees it.
            end(v, Disposition.UNREACHABLE, v.packet.length() + " bytes with Don't Fragment set do not fit " + v.host.name + " " + device
                    + "'s MTU " + mtu + ": ICMP fragmentation needed (mtu " + mtu + ") goes back to " + v.packet.src());
        }
        return false;
    }

    /** The largest fragment of a packet fragmented for {@code mtu}: a 20-byte header and payload in 8-byte units. */
    static int largestFragment(int mtu) {
        return 20 + (mtu - 20) / 8 * 8;
    }

    /** The 4 bytes of a VLAN tag a Linux device takes beyond its MTU from the wire ({@code is_skb_forwardable}). */
    static final int VLAN_ALLOWANCE = 4;

    /**
     * A device takes no frame larger than its MTU (and a VLAN tag) from the wire (a veth's peer, a
     * bridge port): the packet is lost without a word to anyone, the path-MTU black hole. True when it was.
     */
    private boolean lostOnTheWire(Visit v, String device, Wiring.Port port) {
        CompiledHost receiver = net.host(port.host());
        int mtu = receiver.mtu(port.iface());
        if (!v.packet.exceeds(mtu + VLAN_ALLOWANCE)) {
            return false;
        }
        String reason = v.packet.length() + " bytes are larger than " + receiver.name + " " + port.iface() + "'s MTU " + mtu
                + ": it drops them on receipt and nobody is told (a path-MTU black hole)";
        v.step(new Step.Drop(reason, v.packet));
        finishHop(v, device, true);
        v.sink.accept(new Ending(Disposition.DROPPED, Optional.of(reason), v.hops.toList(), v.host.id, v.host.index, v.packet, v.origin,
                v.conntrack, v.choices.toList(), v.invalidAt == null ? Optional.empty() : Optional.of(invalidNote(v))));
        return true;
    }

    /**
     * Reverse-path filtering, as {@code fib_validate_source} does it for a packet routed in from a
     * device whose rp_filter (max of {@code conf.all} and the device's) is on: the source is looked
     * up as a destination (no mark, "iif lo", so rules with {@code iif lo} apply). No route, or a
     * route that is not unicast (a local address, a blackhole) fails in both modes; a unicast route
     * not using the device fails only in strict mode. False when the packet was dropped.
     */
    private boolean reversePathValid(Visit v) {
        int mode = v.host.rpFilter(v.in);
        if (mode == 0 || v.packet.src().equals(Ipv4Address.ANY)) {
            return true;
        }
        RouteDecision back = v.host.routing.lookup(v.packet.src(), v.packet.dst(), 0, RoutingPolicy.LOOPBACK, null);
        String filter = "rp_filter=" + mode + (mode == 1 ? " (strict)" : " (loose)") + " on " + v.host.name + " " + v.in;
        String problem;
        if (back instanceof RouteDecision.Forward f) {
            for (CompiledNexthop nh : f.nexthops()) {
                if (v.in.equals(nh.device())) {
                    return true;
                }
            }
            if (mode == 2) {
                return true;
            }
            problem = "the route back to " + v.packet.src() + " (" + f.route().text() + ") leaves by "
                    + String.join(", ", f.nexthops().stream().map(CompiledNexthop::device).distinct().toList()) + ", not " + v.in;
        } else if (back instanceof RouteDecision.Local) {
            problem = "the source " + v.packet.src() + " is an address of " + v.host.name + " itself (a martian source)";
        } else if (back instanceof RouteDecision.Reject r) {
            problem = "the route back to " + v.packet.src() + " is '" + r.route().text() + "', not a unicast route";
        } else {
            problem = "there is no route back to " + v.packet.src();
        }
        end(v, Disposition.DROPPED, "dropped by " + filter + ": " + problem);
        return false;
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
        pass(v, POSTROUTING, 0, transmitStage);
    }

    private void localIn(Visit v) {
        pass(v, INPUT, 0, inputDone);
    }

    /** The end of INPUT: a VXLAN datagram goes to its device, anything else to a socket of the host. */
    private void inputDone(Visit v) {
        commit(v);
        if (v.tunnel != null) {
            decapsulate(v);
            return;
        }
        if (v.packet.length() != Packet.SMALL) {
            // Fragments are reassembled before the socket reads them: it gets the whole datagram.
            v.packet = v.packet.withLength(v.origin.length(), v.packet.df());
        }
        v.step(new Step.Deliver(v.host.pod ? "pod process" : "host process", v.packet));
        end(v, Disposition.DELIVERED, null);
    }

    // ---------------------------------------------------------------- leaving a host

    private void transmit(Visit v, CompiledNexthop nexthop) {
        Ipv4Address next = nexthop.nextHopFor(v.packet.dst());
        CompiledHost.Egress egress = v.host.egress(nexthop);
        if (egress.vxlan() != null) {
            encapsulate(v, egress.vxlan(), next);
            return;
        }
        WireGuardDevice wireGuard = net.wireGuard.device(v.host.index, nexthop.device());
        if (wireGuard != null) {
            wireGuardOut(v, wireGuard);
            return;
        }
        // XFRM: after routing and POSTROUTING (NAT re-does the policy lookup with the translated
        // addresses), a packet an outbound policy covers leaves as ESP instead. The outer packet of an
        // SA is not looked up again: the kernel's bundle sends it as it is.
        if (!(v.tunnel instanceof Tunnel.Esp) && net.ipsec.hasAny(v.host.index)) {
            IpsecConnection connection = net.ipsec.outbound(v.host.index, v.packet.src(), v.packet.dst());
            if (connection != null) {
                espOut(v, connection, nexthop.device());
                return;
            }
        }
        Wiring.Delivery delivery = egress.peer() != null ? egress.peer()
                : net.wiring.send(egress.link(), v.host.index, v.host.name, nexthop.device(), next);
        if (delivery instanceof Wiring.Delivery.Reached r) {
            if (lostOnTheWire(v, nexthop.device(), r.port())) {
                return;
            }
            finishHop(v, nexthop.device(), true);
            arrive(v, r.port());
        } else if (delivery instanceof Wiring.Delivery.Failed f) {
            end(v, Disposition.UNREACHABLE, f.reason() + noPolicyNote(v));
        }
    }

    /** On a host with IPsec connections, a packet that reaches the wire in clear is worth explaining. */
    private String noPolicyNote(Visit v) {
        if (v.tunnel instanceof Tunnel.Esp || !net.ipsec.hasAny(v.host.index)) {
            return "";
        }
        return " (no IPsec connection of " + v.host.name + " covers " + v.packet.src() + " -> " + v.packet.dst()
                + ", so it was not encrypted)";
    }

    private void encapsulate(Visit v, VxlanFabric.Resolver vxlan, Ipv4Address next) {
        VxlanDevice device = vxlan.device();
        VxlanFabric.Resolution resolution = vxlan.resolve(next);
        if (resolution instanceof VxlanFabric.Resolution.Failed f) {
            end(v, Disposition.UNREACHABLE, f.reason());
            return;
        }
        VxlanFabric.Resolution.Found found = (VxlanFabric.Resolution.Found) resolution;
        if (v.hopOut == null) {
            v.hopOut = device.name();
            v.hopDepart = v.packet;
        }
        // The kernel's VXLAN device leaves Don't Fragment off its outer packet (df unset): a too large one is fragmented.
        Packet outer = new Packet(device.local(), found.outerDestination(), entropyPort(v.packet), device.port(),
                Protocol.UDP, Packet.DEFAULT_TTL, outerLength(v.packet, VXLAN_OVERHEAD), false);
        Tunnel tunnel = new Tunnel.Vxlan(device.vni(), found.mac(), v.packet, v.tunnel);
        v.step(new Step.Encap(Encapsulation.VXLAN, device.name(), OptionalInt.of(device.vni()), device.port(), device.local(),
                found.outerDestination(), device.underlay(), found.how(), false, outer));
        String oif = device.underlay() == null || device.underlay().isBlank() ? null : device.underlay();
        // Same namespace: the sk_buff keeps its mark through the encapsulation (skb_scrub_packet
        // clears it only across namespaces), but its conntrack entry is the outer packet's own.
        localOut(v, outer, tunnel, false, oif);
    }

    /** The hop leaves by the tunnel device (the first one, when tunnels nest), with the packet as it was then. */
    private static void departBy(Visit v, String device) {
        if (v.hopOut == null) {
            v.hopOut = device;
            v.hopDepart = v.packet;
        }
    }

    /**
     * WireGuard's cryptokey routing: the peer is the one whose allowed IPs hold the destination; the
     * encrypted message goes in UDP from the device's listen port to the peer's endpoint, from the
     * address the host's routing picks for that endpoint. The message is a new sk_buff of the device's
     * socket, without the inner packet's mark.
     */
    private void wireGuardOut(Visit v, WireGuardDevice device) {
        Packet inner = v.packet;
        Optional<WireGuardPeer> chosen = device.peerFor(inner.dst());
        if (chosen.isEmpty()) {
            end(v, Disposition.UNREACHABLE, v.host.name + " " + device.name() + ": no peer's allowed IPs hold " + inner.dst()
                    + " (WireGuard answers host unreachable)");
            return;
        }
        WireGuardPeer peer = chosen.get();
        OuterRoute route = outerRoute(v, peer.endpointAddress());
        if (route == null) {
            end(v, Disposition.NO_ROUTE, v.host.name + " " + device.name() + ": no route to peer " + peer.remote() + " at "
                    + peer.endpoint());
            return;
        }
        departBy(v, device.name());
        // WireGuard pads the plaintext to 16 bytes and sends without Don't Fragment.
        Packet outer = new Packet(route.source(), peer.endpointAddress(), device.listenPort(), peer.endpointPort(), Protocol.UDP,
                Packet.DEFAULT_TTL, inner.length() == Packet.SMALL ? Packet.SMALL : WIREGUARD_OVERHEAD + roundUp(inner.length(), 16), false);
        v.step(new Step.Encap(Encapsulation.WIREGUARD, device.name(), OptionalInt.empty(), peer.endpointPort(), route.source(),
                peer.endpointAddress(), route.device(), "peer " + peer.remote() + " (key " + peer.publicKey() + "): allowed IP "
                + peer.allowedIpFor(inner.dst()).orElseThrow() + " holds " + inner.dst(), true, outer));
        v.mark = 0;
        localOut(v, outer, new Tunnel.WireGuard(device.privateKey(), peer.presharedKey(), inner, v.tunnel), false, null);
    }

    /** Tunnel-mode ESP in UDP from the connection's left address and NAT-T port to the right ones; the sk_buff keeps its mark. */
    private void espOut(Visit v, IpsecConnection connection, String routedDevice) {
        Packet inner = v.packet;
        OuterRoute route = outerRoute(v, connection.right());
        departBy(v, routedDevice);
        // Tunnel-mode ESP copies the inner Don't Fragment bit to the outer header.
        Packet outer = new Packet(connection.left(), connection.right(), connection.leftIkePort(), connection.rightIkePort(), Protocol.UDP,
                Packet.DEFAULT_TTL, inner.length() == Packet.SMALL ? Packet.SMALL
                : ESP_IN_UDP_HEADERS + roundUp(inner.length() + ESP_TRAILER, 4) + ESP_ICV, inner.df());
        v.step(new Step.Encap(Encapsulation.ESP_IN_UDP, connection.name(), OptionalInt.empty(), connection.rightIkePort(),
                connection.left(), connection.right(), route == null ? routedDevice : route.device(), "policy out "
                + connection.leftSubnet() + " -> " + connection.rightSubnet() + " holds " + inner.src() + " -> " + inner.dst(), true, outer));
        localOut(v, outer, new Tunnel.Esp(connection, inner, v.tunnel), false, null);
    }

    private record OuterRoute(Ipv4Address source, String device) {
    }

    /** Outer IPv4 (20), UDP (8), VXLAN (8) and the inner frame's Ethernet header (14). */
    static final int VXLAN_OVERHEAD = 50;
    /** Outer IPv4 (20), UDP (8), WireGuard's data message header (16) and its Poly1305 tag (16). */
    static final int WIREGUARD_OVERHEAD = 60;
    /** Outer IPv4 (20), UDP (8), ESP header (8) and AES-GCM's IV (8); then the trailer (2) and ICV (16). */
    static final int ESP_IN_UDP_HEADERS = 44;
    static final int ESP_TRAILER = 2;
    static final int ESP_ICV = 16;

    private static int outerLength(Packet inner, int overhead) {
        return inner.length() == Packet.SMALL ? Packet.SMALL : inner.length() + overhead;
    }

    private static int roundUp(int value, int unit) {
        return (value + unit - 1) / unit * unit;
    }

    /** How the host would send to {@code destination} from a socket: the source address and device routing picks. */
    private static OuterRoute outerRoute(Visit v, Ipv4Address destination) {
        if (v.host.routing.lookup(destination, Ipv4Address.ANY, 0, RoutingPolicy.LOOPBACK, null) instanceof RouteDecision.Forward f
                && !f.nexthops().isEmpty()) {
            CompiledNexthop nh = f.nexthops().getFirst();
            Ipv4Address source = f.route().route().source().orElse(v.host.firstAddress(nh.device()));
            return source == null ? null : new OuterRoute(source, nh.device());
        }
        return null;
    }

    private void decapsulate(Visit v) {
        switch (v.tunnel) {
            case Tunnel.Vxlan vxlan -> vxlanIn(v, vxlan);
            case Tunnel.WireGuard wireGuard -> wireGuardIn(v, wireGuard);
            case Tunnel.Esp esp -> espIn(v, esp);
        }
    }

    private void vxlanIn(Visit v, Tunnel.Vxlan tunnel) {
        Packet outer = v.packet;
        VxlanDevice device = net.vxlan.receiver(v.host.index, outer.dport(), tunnel.vni());
        if (device == null) {
            end(v, Disposition.DROPPED, v.host.name + " has no VXLAN device for UDP port " + outer.dport() + " and VNI "
                    + tunnel.vni());
            return;
        }
        if (!device.mac().equals(tunnel.mac())) {
            end(v, Disposition.DROPPED, v.host.name + " " + device.name() + " (" + device.mac() + ") discards the frame for "
                    + tunnel.mac());
            return;
        }
        v.step(new Step.Decap(Encapsulation.VXLAN, device.name(), OptionalInt.of(tunnel.vni()), outer.dport(), outer.src(), outer.dst(),
                arrivedBy(v), "", false, tunnel.inner()));
        enterFrom(v, device.name(), tunnel);
    }

    /**
     * The device listening on the datagram's port decrypts it if the sender's key is one of its peers',
     * then keeps the inner packet only if its source is among that peer's allowed IPs.
     */
    private void wireGuardIn(Visit v, Tunnel.WireGuard tunnel) {
        Packet outer = v.packet;
        WireGuardDevice device = net.wireGuard.receiver(v.host.index, outer.dport());
        if (device == null) {
            end(v, Disposition.DROPPED, v.host.name + " has no WireGuard device listening on UDP port " + outer.dport());
            return;
        }
        Optional<WireGuardPeer> known = device.peerWithKey(tunnel.senderKey());
        if (known.isEmpty()) {
            end(v, Disposition.DROPPED, v.host.name + " " + device.name() + " has no peer with key " + tunnel.senderKey()
                    + ": the handshake from " + outer.src() + " fails");
            return;
        }
        WireGuardPeer peer = known.get();
        if (!peer.presharedKey().equals(tunnel.presharedKey())) {
            end(v, Disposition.DROPPED, v.host.name + " " + device.name() + " holds preshared key " + peer.presharedKey() + " for peer "
                    + peer.remote() + ", which sent with " + tunnel.presharedKey() + ": the handshake from " + outer.src() + " fails");
            return;
        }
        Ipv4Address source = tunnel.inner().src();
        Optional<Ipv4Prefix> allowed = peer.allowedIpFor(source);
        if (allowed.isEmpty()) {
            Optional<WireGuardPeer> owner = device.peerFor(source);
            end(v, Disposition.DROPPED, v.host.name + " " + device.name() + " drops a packet from peer " + peer.remote()
                    + ": inner source " + source + " is not in its allowed IPs " + peer.allowedIps()
                    + owner.map(o -> " (" + source + " belongs to peer " + o.remote() + ")").orElse(""));
            return;
        }
        v.step(new Step.Decap(Encapsulation.WIREGUARD, device.name(), OptionalInt.empty(), outer.dport(), outer.src(), outer.dst(),
                arrivedBy(v), "peer " + peer.remote() + " (key " + peer.publicKey() + "): allowed IP " + allowed.get() + " holds "
                + source, true, tunnel.inner()));
        enterFrom(v, device.name(), tunnel);
    }

    /**
     * ESP-in-UDP reaches the IKE daemon's NAT-T socket, which hands it to XFRM: the SA must be one the
     * receiver has the other end of, and the inner packet must match that SA's inbound policy. Tunnel
     * mode keeps the input device, so the inner packet enters from the interface the outer one came by.
     */
    private void espIn(Visit v, Tunnel.Esp tunnel) {
        Packet outer = v.packet;
        if (!net.ipsec.listens(v.host.index, outer.dport())) {
            end(v, Disposition.DROPPED, v.host.name + " has no IPsec NAT-T socket on UDP port " + outer.dport());
            return;
        }
        IpsecConnection connection = net.ipsec.peerOf(v.host.index, tunnel.sender());
        IpsecConnection sender = tunnel.sender();
        if (connection == null) {
            end(v, Disposition.DROPPED, v.host.name + " has no IPsec connection from " + sender.right() + " to " + sender.left()
                    + " for " + sender.rightSubnet() + " <- " + sender.leftSubnet() + " (" + sender.name()
                    + " at the sender): IKE cannot negotiate that SA");
            return;
        }
        Packet inner = tunnel.inner();
        if (!connection.rightSubnet().contains(inner.src()) || !connection.leftSubnet().contains(inner.dst())) {
            end(v, Disposition.DROPPED, v.host.name + " " + connection.name() + ": the inbound policy " + connection.rightSubnet()
                    + " -> " + connection.leftSubnet() + " does not cover " + inner.src() + " -> " + inner.dst());
            return;
        }
        String in = arrivedBy(v);
        v.step(new Step.Decap(Encapsulation.ESP_IN_UDP, connection.name(), OptionalInt.empty(), outer.dport(), outer.src(), outer.dst(),
                in, "SA " + connection.name() + ": policy in " + connection.rightSubnet() + " -> " + connection.leftSubnet() + " holds "
                + inner.src() + " -> " + inner.dst(), true, inner));
        enterFrom(v, in, tunnel);
    }

    private static String arrivedBy(Visit v) {
        return v.in == null ? RoutingPolicy.LOOPBACK : v.in;
    }

    private void enterFrom(Visit v, String device, Tunnel tunnel) {
        v.hopIn = device;
        v.hopArrive = tunnel.inner();
        receive(v, device, tunnel.inner(), tunnel.innerTunnel());
    }

    /**
     * VXLAN's outer source port spreads flows over the underlay. The kernel derives it from a hash of
     * the inner flow seeded at boot, so no simulator can know it; this is a fixed function of the inner
     * 5-tuple in the same range (32768-60999).
     */
    private static int entropyPort(Packet inner) {
        int hash = MultipathHash.hash(inner);
        return EPHEMERAL_LOW + (int) NatAddressChoice.reciprocalScale(hash, EPHEMERAL_HIGH - EPHEMERAL_LOW + 1L);
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
            v.choices = v.choices.add(choice(f, nexthops, i));
            routeStep(v, f, nexthops.get(i));
            next.go(v, nexthops.get(i), i);
            return;
        }
        for (int i = 0; i < n; i++) {
            Visit b = i == n - 1 ? v : v.copy();
            b.choices = b.choices.add(choice(f, nexthops, i));
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
            end(v, Disposition.DROPPED, "dropped by " + where);
        } else {
            // The kernel answers EHOSTUNREACH (ICMP host unreachable for a forwarded packet).
            end(v, Disposition.UNREACHABLE, "unreachable by " + where);
        }
    }

    private void noRoute(Visit v, RouteDecision.NoRoute n) {
        end(v, Disposition.NO_ROUTE, "no route to " + v.packet.dst() + " on " + v.host.name
                + (n.tablesTried().isEmpty() ? "" : " (tables " + String.join(", ", n.tablesTried()) + ")"));
    }

    // ---------------------------------------------------------------- netfilter

    /**
     * Runs the tables of {@code stages} from {@code from} on, in order, then hands the packet to
     * {@code then}; a packet a table drops goes no further. Most tables cannot fork, so this is a
     * loop; at one that forks (a {@code statistic} rule followed both ways), each outcome goes on
     * with the tables after it on its own.
     *
     * <p>The nat table is consulted for the first packet of a connection only; every later packet,
     * in either direction, gets the translation stored in its connection instead.
     */
    private void pass(Visit v, Stage[] stages, int from, Consumer<Visit> then) {
        for (int i = from; i < stages.length; i++) {
            Stage stage = stages[i];
            // NAT works on conntrack entries: a packet without one (untracked, or INVALID) is never translated.
            if (stage.nat() && (v.untracked || v.invalid)) {
                continue;
            }
            if (stage.nat() && !v.isNew) {
                storedNat(v, stage.destinationHook());
                continue;
            }
            CompiledChain chain = v.host.ruleset.builtin(stage.slot());
            // POSTROUTING has no input device (ip_output passes none), so -i never matches there.
            if (chain == null || !chain.mayActOn(v.packet, stage.hook() == Hook.POSTROUTING ? null : v.in)) {
                continue;
            }
            TableRun start = start(v, stage.hook());
            if (Ruleset.mayFork(chain, start)) {
                fork(v, chain, start, stages, i, then);
                return;
            }
            if (!takeOver(v, Ruleset.runOnce(chain, start), stage)) {
                return;
            }
        }
        then.accept(v);
    }

    private void fork(Visit v, CompiledChain chain, TableRun start, Stage[] stages, int at, Consumer<Visit> then) {
        List<TableRun> outcomes = new ArrayList<>(2);
        Ruleset.run(chain, start, outcomes::add);
        for (int i = 0; i < outcomes.size(); i++) {
            Visit b = i == outcomes.size() - 1 ? v : v.copy();
            if (takeOver(b, outcomes.get(i), stages[at])) {
                pass(b, stages, at + 1, then);
            }
        }
    }

    /** A table's outcome applied, with its translation for nat; false when the packet went no further. */
    private boolean takeOver(Visit v, TableRun o, Stage stage) {
        if (!apply(v, o)) {
            return false;
        }
        return !stage.nat() || o.verdict() != Verdict.NAT || translate(v, o.decidedBy(), stage.hook());
    }

    /**
     * The branch's run object, started afresh: every outcome of the previous table has been taken over
     * by then ({@link #apply} reads all of it before the walk goes on), and a copied Visit gets its own.
     */
    private TableRun start(Visit v, Hook hook) {
        // POSTROUTING has no input device (ip_output passes none), so -i never matches there.
        String in = hook == Hook.POSTROUTING ? null : v.in;
        if (v.run == null) {
            v.run = new TableRun(v.packet, in, v.out, v.mark, v.connmark, ctStates(v), followAll);
        } else {
            v.run.start(v.packet, in, v.out, v.mark, v.connmark, ctStates(v), followAll);
        }
        return v.run.withMss(v.mss, v.mss == 0 ? 0 : clampedMss(v)).observedBy(v.observer, v.host.id);
    }

    /** Takes over what the rules did; false when the packet was dropped (the branch has ended). */
    private boolean apply(Visit v, TableRun o) {
        int mssBefore = v.mss;
        v.mark = o.mark();
        v.mss = o.mss();
        if (!v.untracked && !v.invalid) {
            v.connmark = o.connmark();
        }
        if (o.notrack() && !v.untracked) {
            v.untracked = true;
        }
        if (o.hits() == 0 && o.choices().isEmpty() && o.verdict() != Verdict.DROP) {
            return true;
        }
        return record(v, o, mssBefore);
    }

    /**
     * The steps and choices of a traversal that did something; false when it dropped the packet.
     * {@code mss} is the packet's MSS option before the traversal.
     */
    private boolean record(Visit v, TableRun o, int mss) {
        for (int i = 0; i < o.hits(); i++) {
            CompiledRule rule = o.hitRule(i);
            Target target = rule.target();
            if (target instanceof Target.Accept || target instanceof Target.Drop) {
                v.step(new Step.Filter(rule.ref(), target instanceof Target.Accept, v.packet));
            } else if (target instanceof Target.NoTrack) {
                v.step(new Step.NoTrack(rule.ref(), v.packet));
            } else if (target instanceof Target.SetMss || target instanceof Target.ClampMssToPmtu) {
                v.step(new Step.Mss(rule.ref(), mss, o.hitMark(i), v.packet));
                mss = o.hitMark(i);
            } else {
                v.step(new Step.Mark(rule.ref(), target instanceof Target.SetConnMark, o.hitMark(i), v.packet));
            }
        }
        if (!o.choices().isEmpty()) {
            v.choices = v.choices.addAll(o.choices());
        }
        if (o.verdict() == Verdict.DROP) {
            endDropped(v, "dropped by " + o.decidedBy().ref() + " on " + v.host.name);
            return false;
        }
        return true;
    }

    private static void storedNat(Visit v, boolean destinationHook) {
        Connection c = v.conn;
        Packet p = v.packet;
        if (v.reply) {
            if (destinationHook && c.snat()) {
                v.packet = p.withDestination(c.original().src(), c.original().sport());
                v.step(new Step.Unsnat(v.packet));
            } else if (!destinationHook && c.dnat()) {
                v.packet = p.withSource(c.original().dst(), c.original().dport());
                v.step(new Step.Undnat(v.packet));
            }
            return;
        }
        // A later packet of the original direction: set the translated fields again. This changes
        // nothing when the packet already carries them (a second pass through the same stack).
        if (destinationHook && c.dnat()) {
            Packet q = p.withDestination(c.reply().src(), c.reply().sport());
            if (!q.sameFlow(p)) {
                v.packet = q;
                v.step(new Step.Dnat(Optional.empty(), q));
            }
        } else if (!destinationHook && c.snat()) {
            Packet q = p.withSource(c.reply().dst(), c.reply().dport());
            if (!q.sameFlow(p)) {
                v.packet = q;
                v.step(new Step.Snat(Optional.empty(), q));
            }
        }
    }

    /** Applies a SNAT, DNAT or MASQUERADE rule to a new connection; false when the packet ended. */
    private boolean translate(Visit v, CompiledRule rule, Hook hook) {
        boolean destinationHook = hook == Hook.PREROUTING || hook == Hook.OUTPUT;
        Packet p = v.packet;
        switch (rule.target()) {
            case Target.Dnat d -> {
                if (!destinationHook) {
                    return invalidNat(v, rule, "DNAT", hook);
                }
                int port = p.protocol().hasPorts() ? d.toPort().orElse(p.dport()) : p.dport();
                Packet q = p.withDestination(d.toAddress(), port);
                v.dnatDone |= !q.sameFlow(p);
                v.packet = q;
                v.step(new Step.Dnat(rule.optionalRef(), q));
                return true;
            }
            case Target.Snat s -> {
                if (destinationHook) {
                    return invalidNat(v, rule, "SNAT", hook);
                }
                snat(v, rule, NatAddressChoice.choose(s.toSource(), p.src(), p.dst()));
                return true;
            }
            case Target.Masquerade m -> {
                if (destinationHook) {
                    return invalidNat(v, rule, "MASQUERADE", hook);
                }
                Ipv4Address address = v.out == null ? null : v.host.firstAddress(v.out);
                if (address == null) {
                    endDropped(v, "MASQUERADE by " + rule.ref() + " on " + v.host.name + ": output device " + v.out
                            + " has no address");
                    return false;
                }
                snat(v, rule, address);
                return true;
            }
            default -> throw new IllegalStateException("not a NAT target: " + rule.target());
        }
    }

    private boolean invalidNat(Visit v, CompiledRule rule, String what, Hook hook) {
        endDropped(v, what + " in " + hook + " is not valid (iptables-restore refuses " + rule.ref() + ") on " + v.host.name);
        return false;
    }

    /**
     * Source NAT keeps the source port unless another connection of this host already expects replies
     * on the resulting tuple; the kernel then picks a random free port from 1024-65535, the simulator
     * the next free one.
     */
    private static void snat(Visit v, CompiledRule rule, Ipv4Address address) {
        Packet p = v.packet;
        int port = p.sport();
        if (p.protocol().hasPorts()) {
            for (int tries = 0; tries < 65536 - 1024; tries++) {
                ConnTuple reply = new ConnTuple(p.dst(), address, p.dport(), port, p.protocol());
                if (!v.conntrack.replyTupleInUse(v.host.index, reply)) {
                    break;
                }
                port = port >= 65535 ? 1024 : port + 1;
            }
        }
        Packet q = p.withSource(address, port);
        v.snatDone |= !q.sameFlow(p);
        v.packet = q;
        v.step(new Step.Snat(rule.optionalRef(), q));
    }

    // ---------------------------------------------------------------- conntrack

    /**
     * Finds the packet's connection in the host's table. With {@code tcpStates}, a TCP segment that has
     * no entry and opens none ({@link TcpSegment#opensConnection}) is INVALID, as
     * {@code nf_conntrack_in} leaves it: no entry is made and the packet goes on without one.
     */
    private static void conntrackLookup(Visit v, boolean tcpStates) {
        closeConntrackLayer(v);
        ConntrackState.Match m = v.conntrack.find(v.host.index, v.packet);
        v.ctPacket = v.packet;
        v.untracked = false;
        v.invalid = false;
        v.snatDone = false;
        v.dnatDone = false;
        if (m == null && tcpStates && v.packet.protocol() == Protocol.TCP && !v.segment.opensConnection(v.host.tcpLoose)) {
            v.conn = null;
            v.isNew = false;
            v.reply = false;
            v.invalid = true;
            v.connmark = 0;
            v.ctOriginal = null;
            if (v.invalidAt == null) {
                v.invalidAt = v.host.name;
            }
            v.ctState = ConntrackLookup.State.INVALID;
            return;
        }
        if (m == null) {
            v.conn = null;
            v.isNew = true;
            v.reply = false;
            v.connmark = 0;
            v.ctOriginal = v.packet;
            v.ctState = ConntrackLookup.State.NEW;
        } else {
            v.conn = m.connection();
            v.isNew = false;
            v.reply = m.reply();
            v.connmark = m.connection().connmark();
            v.ctOriginal = null;
            v.ctState = ConntrackLookup.State.ESTABLISHED;
        }
    }

    /**
     * Writes what conntrack made of the layer just processed into the hop: its state at lookup (or
     * UNTRACKED when a rule said so), its direction, and the entry as it stands now (matched, created, or
     * for a new connection that ended here, the unconfirmed one).
     */
    private static void closeConntrackLayer(Visit v) {
        if (v.ctState == null) {
            return;
        }
        ConntrackLookup.State state = v.untracked ? ConntrackLookup.State.UNTRACKED : v.ctState;
        Optional<ConntrackLookup.Entry> entry;
        if (state == ConntrackLookup.State.UNTRACKED || state == ConntrackLookup.State.INVALID) {
            entry = Optional.empty();
        } else if (v.conn != null) {
            Connection c = v.conn;
            entry = Optional.of(new ConntrackLookup.Entry(tuple(c.original()), tuple(c.reply()), c.snat(), c.dnat(), c.connmark(), true));
        } else {
            entry = Optional.of(new ConntrackLookup.Entry(tuple(ConnTuple.of(v.ctOriginal)), tuple(ConnTuple.of(v.packet).inverse()),
                    v.snatDone, v.dnatDone, v.connmark, false));
        }
        v.ctLayers = v.ctLayers.add(new ConntrackLookup(v.ctPacket, state, v.reply, entry));
        v.ctState = null;
    }

    private static Packet tuple(ConnTuple t) {
        return Packet.of(t.src(), t.dst(), t.sport(), t.dport(), t.protocol());
    }

    private static final int UNTRACKED = 1 << CtState.UNTRACKED.ordinal();
    private static final int INVALID = 1 << CtState.INVALID.ordinal();
    private static final int NEW = 1 << CtState.NEW.ordinal();
    private static final int ESTABLISHED = 1 << CtState.ESTABLISHED.ordinal();
    private static final int SNAT = 1 << CtState.SNAT.ordinal();
    private static final int DNAT = 1 << CtState.DNAT.ordinal();

    private static int ctStates(Visit v) {
        if (v.untracked) {
            return UNTRACKED;
        }
        if (v.invalid) {
            return INVALID;
        }
        if (v.isNew) {
            return NEW | (v.snatDone ? SNAT : 0) | (v.dnatDone ? DNAT : 0);
        }
        return ESTABLISHED | (v.conn.snat() ? SNAT : 0) | (v.conn.dnat() ? DNAT : 0);
    }

    /** Conntrack confirmation, the last thing in POSTROUTING and INPUT. */
    private static void commit(Visit v) {
        if (v.untracked || v.invalid) {
            return;
        }
        if (v.isNew) {
            Connection c = new Connection(v.host.index, ConnTuple.of(v.ctOriginal), ConnTuple.of(v.packet).inverse(),
                    v.snatDone, v.dnatDone, v.connmark);
            v.conntrack = v.conntrack.with(c);
            v.conn = c;
            v.isNew = false;
            v.reply = false;
        } else if (v.connmark != v.conn.connmark()) {
            Connection c = v.conn.withConnmark(v.connmark);
            v.conntrack = v.conntrack.with(c);
            v.conn = c;
        }
    }

    // ---------------------------------------------------------------- ends

    /** Why an INVALID packet went on untranslated, for the reason of the end it came to. */
    static String invalidNote(Visit v) {
        return "conntrack on " + v.invalidAt + " had no connection for this " + v.segment.name().replace('_', '-')
                + (v.segment == TcpSegment.ACK ? " and nf_conntrack_tcp_loose=0 does not pick one up" : "")
                + ": INVALID, so it was not NATed";
    }

    private void finishHop(Visit v, String device, boolean departs) {
        String out = v.hopOut != null ? v.hopOut : device;
        Packet depart = v.hopOut != null ? v.hopDepart : v.packet;
        closeConntrackLayer(v);
        v.hops = v.hops.add(new Hop(v.host.id, v.host.device(v.hopIn), v.host.device(departs ? out : null),
                v.hopArrive, v.steps.toList(), Optional.ofNullable(departs ? depart : null), v.ctLayers.toList()));
    }

    private void endDropped(Visit v, String reason) {
        end(v, Disposition.DROPPED, reason);
    }

    private void end(Visit v, Disposition disposition, String reason) {
        if (disposition != Disposition.DELIVERED && v.invalidAt != null && reason != null) {
            reason = reason + " (" + invalidNote(v) + ")";
        }
        if (disposition != Disposition.DELIVERED && !(v.steps.last() instanceof Step.Filter f && !f.accepted())) {
            v.step(new Step.Drop(reason, v.packet));
        }
        finishHop(v, null, false);
        v.sink.accept(new Ending(disposition, Optional.ofNullable(reason), v.hops.toList(), v.host.id, v.host.index, v.packet, v.origin,
                v.conntrack, v.choices.toList(), v.invalidAt == null ? Optional.empty() : Optional.of(invalidNote(v))));
    }
}
