package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.engine.CableSegments;
import io.periscope.simulator.engine.CompiledNetwork;
import io.periscope.simulator.engine.Dataplane;
import io.periscope.simulator.engine.Ending;
import io.periscope.simulator.engine.EndpointClasses;
import io.periscope.simulator.engine.SuffixMemo;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.netfilter.NetfilterFootprint;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Traces flows through a cluster set plan. The plan is compiled once, in the constructor (or, built by
 * {@link #compilingOnFirstUse}, each host once, when a trace first reaches it); a simulator traces the
 * same afterwards and may trace from several threads at once.
 *
 * <p>A flow is sent from its source host and followed along every path. Where a TCP or UDP packet is
 * delivered, the receiving socket's answer (addresses and ports swapped) is followed back from that host
 * with the conntrack entries of that very path. The path counts as delivered only when the answer
 * reaches the sender's host addressed exactly as the sender's socket expects (a reply that arrives
 * un-NATed wrongly is dropped by the socket, so it is no delivery).
 */
public final class Simulator {

    private final ClusterSetPlan plan;
    private final MultipathMode mode;
    private final CompiledNetwork network;
    private final Dataplane dataplane;
    private final FlowResolver resolver;
    private final io.periscope.simulator.link.PathLinkCrossings links;

    /** Follows every alternative ({@link MultipathMode#ALL_BRANCHES}). */
    public Simulator(ClusterSetPlan plan) {
        this(plan, MultipathMode.ALL_BRANCHES);
    }

    /** @throws IllegalArgumentException when the plan could not be programmed into a kernel as it is */
    public Simulator(ClusterSetPlan plan, MultipathMode mode) {
        this(plan, mode, new CompiledNetwork(plan));
    }

    /**
     * A simulator that compiles each host's routing and netfilter tables when a trace first reaches
     * the host, for a caller that builds a simulator often and traces few flows with it (the
     * visualizer, on every save). Its traces are those of {@link #Simulator(ClusterSetPlan, MultipathMode)};
     * only a plan that could not be programmed into a kernel is found later: the trace that first
     * reaches the faulty host throws the {@link IllegalArgumentException} the constructor would.
     */
    public static Simulator compilingOnFirstUse(ClusterSetPlan plan, MultipathMode mode) {
        return new Simulator(plan, mode, CompiledNetwork.compilingOnFirstUse(plan));
    }

    private Simulator(ClusterSetPlan plan, MultipathMode mode, CompiledNetwork network) {
        this.plan = plan;
        this.mode = mode;
        this.network = network;
        this.dataplane = new Dataplane(network, mode == MultipathMode.ALL_BRANCHES);
        this.resolver = new FlowResolver(plan);
        this.links = new io.periscope.simulator.link.PathLinkCrossings(plan.clusterSet());
    }

    /**
     * One path per flow, each multipath route's nexthop picked by {@code choice} (the mode is
     * {@link MultipathMode#HASH}): with a {@link io.periscope.simulator.routing.KernelNexthopChoice},
     * the path the kernel of hosts with known hash seeds takes.
     */
    public Simulator(ClusterSetPlan plan, io.periscope.simulator.routing.NexthopChoice choice) {
        this.plan = plan;
        this.mode = MultipathMode.HASH;
        this.network = new CompiledNetwork(plan);
        this.dataplane = new Dataplane(network, choice);
        this.resolver = new FlowResolver(plan);
        this.links = new io.periscope.simulator.link.PathLinkCrossings(plan.clusterSet());
    }

    /** How many compiled netfilter chains and rules its hosts hold, and how many objects they are (benchmarks). */
    public NetfilterFootprint netfilterFootprint() {
        return network.netfilterFootprint();
    }

    public ClusterSetPlan plan() {
        return plan;
    }

    public MultipathMode mode() {
        return mode;
    }

    public FlowResolver resolver() {
        return resolver;
    }

    /** Every flow the cluster set names, in file order. */
    public List<FlowTrace> traceAll() throws FlowResolutionException {
        List<FlowTrace> traces = new ArrayList<>();
        for (Flow flow : plan.clusterSet().flows()) {
            traces.add(trace(flow));
        }
        return traces;
    }

    /** Resolves {@code flow} against the plan (DNS, pods, addresses) and traces it. */
    public FlowTrace trace(Flow flow) throws FlowResolutionException {
        ResolvedFlow resolved;
        try {
            resolved = resolver.resolve(flow);
        } catch (NameNotAnswered e) {
            return unanswered(flow, e);
        }
        return new FlowTrace(flow.name(), flow.from().toString(), flow.to().toString(), resolved.resolvedText(),
                trace(resolved));
    }

    /** What a client sees when it asks for a name nobody answers: no address, so nothing is sent. */
    public static FlowTrace unanswered(Flow flow, NameNotAnswered why) {
        return new FlowTrace(flow.name(), flow.from().toString(), flow.to().toString(), FlowTrace.NO_ADDRESS,
                List.of(new PathTrace(Disposition.UNREACHABLE, List.of(), List.of(), Optional.of("DNS: " + why.answerMissing()
                        + "; nothing is sent"), List.of())));
    }

    /** Every path of an already resolved flow, forward and reply. */
    public List<PathTrace> trace(ResolvedFlow flow) {
        return trace(flow, null);
    }

    /**
     * Every path of an already resolved flow, forward and reply, telling {@code chains} (when not null)
     * of every netfilter chain the packets enter on the way.
     */
    public List<PathTrace> trace(ResolvedFlow flow, ChainObserver chains) {
        return trace(flow, TcpSegment.SYN, chains);
    }

    /**
     * Every path of a TCP connection that already exists at its ends but that the hosts between them
     * have never seen, as after a gateway failure moved it: its next segment, an ACK, each way. Where
     * {@code nf_conntrack_tcp_loose} is on, conntrack picks the connection up (NAT rules apply as
     * for a new one); where it is off, the ACK is INVALID and goes on untranslated.
     */
    public List<PathTrace> traceMidStream(ResolvedFlow flow) {
        return trace(flow, TcpSegment.ACK, null);
    }

    private List<PathTrace> trace(ResolvedFlow flow, TcpSegment first, ChainObserver chains) {
        int source = sourceIndex(flow);
        List<PathTrace> paths = new ArrayList<>();
        dataplane.send(source, sent(flow), first, flow.sourceIp().isEmpty(), ConntrackState.EMPTY, List.of(), chains, forward -> {
            if (forward.disposition() != Disposition.DELIVERED || !flow.protocol().hasPorts()) {
                paths.add(new PathTrace(forward.disposition(), forward.hops(), List.of(), forward.reason(), forward.choices()));
                return;
            }
            dataplane.send(forward.hostIndex(), answer(forward), first.answer(), false, true, forward.conntrack(), forward.choices(), chains,
                    reply -> paths.add(path(flow, source, forward, reply)));
        });
        if (links.anyShaped()) {
            // The file shapes links: each path says what those it crosses add up to.
            paths.replaceAll(links::withLinks);
        }
        return paths;
    }

    /**
     * How many paths of an already resolved flow deliver, out of how many: the dispositions of
     * {@link #trace(ResolvedFlow, ChainObserver)} counted, from the same walk, forward and reply, but
     * without building any path's hops, steps or choices, and walking each suffix the flow's branches
     * share once (see {@link SuffixMemo}). {@code chains} (when not null) is told of every netfilter
     * chain the packets enter, as by a trace; a chain of a suffix whose count is reused was told when
     * the suffix was walked, with the same packet.
     */
    public PathCount count(ResolvedFlow flow, ChainObserver chains) {
        // The paths of a flow converge (the replies of all of a service's endpoints, once un-DNATed):
        // a suffix counted once is added again wherever the flow reaches the same state.
        return count(flow, chains, new SuffixMemo());
    }

    /**
     * As {@link #count(ResolvedFlow, ChainObserver)}, sharing with the flows counted before it the
     * segments {@code segments} holds (see {@link CableSegments}): where this flow's packet arrives by a
     * cable in a state one of them reached, the count of what follows there is reused (and {@code chains}
     * told of the chains it entered), and only the replies that come back by a cable are walked on. The
     * caller keeps one {@code segments} per run of flows (the reachability matrix: per service).
     */
    public PathCount count(ResolvedFlow flow, ChainObserver chains, CableSegments segments) {
        return count(flow, chains, segments, null);
    }

    /**
     * As {@link #count(ResolvedFlow, ChainObserver, CableSegments)}, and where kube-proxy forks the flow
     * into endpoints of one of {@code classes} (when not null), walking the branches to that class's
     * pods once and counting the others alike where nothing on the way tells the pods apart (see
     * {@link EndpointClasses}; {@code chains} is then told of the chains of the branch walked).
     */
    public PathCount count(ResolvedFlow flow, ChainObserver chains, CableSegments segments, EndpointClasses classes) {
        // The chains of a segment are kept with it, to be told again to the flows that reuse it.
        // Only the chains the observer reads are kept: most chains a walk enters name no pod.
        ChainObserver told = chains == null || segments == null ? chains : new ChainObserver() {
            @Override
            public void entered(HostId host, Table table, String chain, Packet packet) {
                if (chains.ignores(host, table, chain)) {
                    return;
                }
                chains.entered(host, table, chain, packet);
                segments.entered(host, table, chain, packet);
            }

            @Override
            public boolean ignores(HostId host, Table table, String chain) {
                return chains.ignores(host, table, chain);
            }

            @Override
            public boolean seesEveryChain() {
                return chains.seesEveryChain();
            }
        };
        SuffixMemo memo = new SuffixMemo(segments, classes);
        PathCount count = count(flow, told, memo);
        if (classes != null) {
            classes.folded(memo.folded());
        }
        return count;
    }

    /** As {@link #count(ResolvedFlow, ChainObserver)}, with the flow's own {@code memo}, for tests to see what it reused. */
    PathCount count(ResolvedFlow flow, ChainObserver chains, SuffixMemo memo) {
        int source = sourceIndex(flow);
        TcpSegment first = TcpSegment.SYN;
        // A reply is counted against the answer the sender expects, which the memo holds while it is walked.
        Consumer<Ending> replies = reply -> memo.countedReply(reply.disposition() == Disposition.DELIVERED,
                answered(source, memo.expected(), reply));
        memo.replies(replies);
        dataplane.send(source, sent(flow), first, flow.sourceIp().isEmpty(), false, ConntrackState.EMPTY, List.of(), chains, false,
                memo, forward -> {
                    if (forward.disposition() != Disposition.DELIVERED || !flow.protocol().hasPorts()) {
                        memo.counted(forward.disposition() == Disposition.DELIVERED);
                        return;
                    }
                    Packet expected = memo.expecting(forward.origin().answer());
                    // Inside a fold's first branch, the reply is part of what the fold watches.
                    dataplane.send(forward.hostIndex(), answer(forward), first.answer(), false, true, forward.conntrack(), List.of(),
                            memo.observing(chains), false, memo, replies);
                    memo.expecting(expected);
                });
        return new PathCount(Math.toIntExact(memo.delivered()), Math.toIntExact(memo.paths()));
    }

    private int sourceIndex(ResolvedFlow flow) {
        int source = network.indexOf(flow.source());
        if (source < 0) {
            throw new IllegalArgumentException("the plan has no host " + flow.source());
        }
        return source;
    }

    /** The flow's first packet as its socket sends it. */
    private static Packet sent(ResolvedFlow flow) {
        // A sized packet leaves as `ping -M do -s` sends it: Don't Fragment set, never fragmented by its sender.
        return Packet.of(flow.sourceIp().orElse(io.periscope.model.net.Ipv4Address.ANY), flow.destination(),
                flow.sourcePort(), flow.port(), flow.protocol()).withLength(flow.size(), true);
    }

    /** The receiving socket's answer to a delivered packet. */
    private static Packet answer(Ending forward) {
        // The answer is as long as what arrived, reassembled (the lab's echo servers send back what they read).
        return forward.packet().answer().withLength(forward.origin().length(), true);
    }

    /** Whether the answer reached the sender's socket addressed exactly as it expects: the path delivered. */
    private static boolean answered(int source, Ending forward, Ending reply) {
        return answered(source, forward.origin().answer(), reply);
    }

    /** Whether the answer reached the sender's socket, on host {@code source}, as {@code expected}. */
    private static boolean answered(int source, Packet expected, Ending reply) {
        return reply.disposition() == Disposition.DELIVERED && reply.hostIndex() == source && reply.packet().sameFlow(expected);
    }

    /** @param source the sender's host index */
    private static PathTrace path(ResolvedFlow flow, int source, Ending forward, Ending reply) {
        if (reply.disposition() != Disposition.DELIVERED) {
            return new PathTrace(reply.disposition(), forward.hops(), reply.hops(), reply.reason().map(r -> "reply: " + r),
                    reply.choices());
        }
        Packet expected = forward.origin().answer();
        if (!answered(source, forward, reply)) {
            return new PathTrace(Disposition.DROPPED, forward.hops(), reply.hops(),
                    Optional.of("reply: reached " + reply.host() + " as " + reply.packet() + ", but the sender "
                            + flow.source() + " expects " + expected + reply.invalid().map(n -> " (" + n + ")").orElse("")),
                    reply.choices());
        }
        return new PathTrace(Disposition.DELIVERED, forward.hops(), reply.hops(), Optional.empty(), reply.choices());
    }
}
