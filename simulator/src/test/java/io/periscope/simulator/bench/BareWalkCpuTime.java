package io.periscope.simulator.bench;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.planner.Planner;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.engine.CompiledNetwork;
import io.periscope.simulator.engine.Dataplane;
import io.periscope.simulator.engine.Ending;
import io.periscope.simulator.trace.Packet;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * How much of a trace is its story: {@link TraceCpuTime}'s flow traced with {@link Simulator#trace},
 * and the same walk, forward and reply of every branch, keeping no story ({@link Dataplane#send} with
 * {@code record} false and no memo: no hops, steps or choices are made, conntrack, NAT, routing and
 * every table still run). The two take turns, a second of the thread's CPU time each, in one JVM;
 * the figures are the medians of the second half and their ratio. The bare walk bounds what any
 * saving on the story could win: a trace can be no faster than the walk it tells. Arguments:
 * topology file, {@link MultipathMode}, seconds of CPU per side.
 */
public final class BareWalkCpuTime {

    private BareWalkCpuTime() {
    }

    /** Kept so that the JIT cannot drop the work whose result nobody reads. */
    private static long seen;

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: BareWalkCpuTime TOPOLOGY ALL_BRANCHES|HASH SECONDS");
            System.exit(2);
        }
        ClusterSet set = TopologyLoader.load(Path.of(args[0]));
        MultipathMode mode = MultipathMode.valueOf(args[1]);
        int seconds = Integer.parseInt(args[2]);
        ClusterSetPlan plan = Planner.plan(set);
        Simulator simulator = new Simulator(plan, mode);
        ResolvedFlow flow = simulator.resolver().resolve(set.flows().getFirst());
        CompiledNetwork network = new CompiledNetwork(plan);
        Dataplane walk = new Dataplane(network, mode == MultipathMode.ALL_BRANCHES);
        int source = network.indexOf(flow.source());
        // The flow's first packet and its answer as Simulator makes them.
        Packet sent = Packet.of(flow.sourceIp().orElse(Ipv4Address.ANY), flow.destination(), flow.sourcePort(), flow.port(),
                flow.protocol()).withLength(flow.size(), true);
        Consumer<Ending> replies = reply -> seen += reply.disposition() == Disposition.DELIVERED ? 1 : 0;
        Consumer<Ending> forwards = forward -> {
            if (forward.disposition() != Disposition.DELIVERED || !flow.protocol().hasPorts()) {
                return;
            }
            walk.send(forward.hostIndex(), forward.packet().answer().withLength(forward.origin().length(), true),
                    TcpSegment.SYN.answer(), false, true, forward.conntrack(), List.of(), null, false, null, replies);
        };
        Runnable bare = () -> walk.send(source, sent, TcpSegment.SYN, flow.sourceIp().isEmpty(), false, ConntrackState.EMPTY,
                List.of(), null, false, null, forwards);
        Runnable traced = () -> seen += simulator.trace(flow).size();

        // Both walk the same paths, or the comparison says nothing.
        long tracedDelivered = simulator.trace(flow).stream().filter(p -> p.disposition() == Disposition.DELIVERED).count();
        seen = 0;
        bare.run();
        if (seen != tracedDelivered) {
            throw new IllegalStateException(args[0] + ": the bare walk delivered " + seen + " replies, the trace " + tracedDelivered + " paths");
        }

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] tracedRates = new long[seconds];
        long[] bareRates = new long[seconds];
        for (int s = 0; s < seconds; s++) {
            tracedRates[s] = flowsPerCpuSecond(threads, traced);
            bareRates[s] = flowsPerCpuSecond(threads, bare);
            System.out.printf("second %d: traced %d, bare walk %d flows per CPU second%n", s + 1, tracedRates[s], bareRates[s]);
        }
        long tracedMedian = secondHalfMedian(tracedRates);
        long bareMedian = secondHalfMedian(bareRates);
        System.out.printf("median: traced %d, bare walk %d flows per CPU second; bare walk / traced %.2f%n",
                tracedMedian, bareMedian, (double) bareMedian / tracedMedian);
    }

    private static long flowsPerCpuSecond(ThreadMXBean threads, Runnable flowOnce) {
        long start = threads.getCurrentThreadCpuTime();
        long flows = 0;
        while (threads.getCurrentThreadCpuTime() - start < 1_000_000_000L) {
            for (int i = 0; i < 100; i++) {
                flowOnce.run();
                flows++;
            }
        }
        return Math.round(flows * 1e9 / (threads.getCurrentThreadCpuTime() - start));
    }

    /** The first half warms the JIT up. */
    private static long secondHalfMedian(long[] rates) {
        long[] measured = Arrays.copyOfRange(rates, rates.length / 2, rates.length);
        Arrays.sort(measured);
        return measured[(measured.length - 1) / 2];
    }
}
