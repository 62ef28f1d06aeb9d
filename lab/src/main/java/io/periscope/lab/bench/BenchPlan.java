package io.periscope.lab.bench;

import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.probe.FlowSimulation;
import io.periscope.lab.probe.ProbeTarget;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code lab bench} runs: the pod pairs (the file's TCP flows between clusters, each with an
 * iperf3 server where the flow ends and a client where it starts) and the streams spread over them
 * round-robin, each with a source port known before it starts.
 *
 * <p>A pair is one iperf3 test: its client opens all its streams with {@code -P k --cport PORT}, so
 * iperf3 binds them to {@code PORT}, {@code PORT+1}, ... in order, and reports each stream's rate and
 * retransmissions by that port. One client per stream would need one server per stream, and a
 * flow's streams all go to the one port the flow names, where only one iperf3 server can listen and
 * it serves one test at a time. For the same reason two pairs cannot end at the same pod and port,
 * and a flow to a service whose packets can end at several pods is left out: kube-proxy would send
 * one test's streams to different servers.
 */
public final class BenchPlan {

    /** The first source port: below Linux's ephemeral range (32768 and up), so no connection the kernel numbers takes one. */
    public static final int FIRST_SOURCE_PORT = 21000;
    /** iperf3's own limit on {@code -P}. */
    public static final int MAX_STREAMS_PER_PAIR = 128;

    private BenchPlan() {
    }

    /**
     * One pod pair: a flow of the file resolved as the simulator resolves it.
     *
     * @param bind       the address the client binds (a pod's own); empty for a node, which leaves it to routing
     * @param sentFrom   the address the client's packets leave with (the simulator's, for a node)
     * @param destination where the client connects to (a service's address, or a pod's)
     * @param server     the host the flow's packets are delivered to, where the iperf3 server listens
     * @param serverPort the port they arrive on there (a service's target port)
     */
    public record Pair(int index, String flow, HostId source, String sourceNamespace, Optional<Ipv4Address> bind, Ipv4Address sentFrom,
                       Ipv4Address destination, int port, HostId server, String serverNamespace, int serverPort) {

        public String describe() {
            return flow + ": " + source + " -> " + destination + ":" + port + " (server " + server + ":" + serverPort + ")";
        }
    }

    /** A stream: one TCP connection of a pair's test, from its own source port. */
    public record Stream(int id, int pair, int sourcePort) {
    }

    /** A flow of the file that is no pair, and why. */
    public record Skipped(String flow, String reason) {
    }

    /** The pairs found in a file and the flows left out. */
    public record Pairs(List<Pair> pairs, List<Skipped> skipped) {

        public Pairs {
            pairs = List.copyOf(pairs);
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * Every TCP flow of {@code set} from a host of one cluster that the simulator delivers to a single
     * host of another, in file order; the others (a flow within a cluster, one the simulator does not
     * deliver, one to several pods, one whose server another pair already uses) are listed as skipped,
     * with why. Flows of other protocols are not considered.
     *
     * @param probePort a source port to trace the flows with (where they end does not depend on it)
     */
    public static Pairs pairs(ClusterSet set, LabLayout layout, FlowSimulation simulation, int probePort) {
        List<Pair> pairs = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        Map<String, String> servers = new LinkedHashMap<>();
        for (Flow flow : set.flows()) {
            if (flow.protocol() != Protocol.TCP) {
                continue;
            }
            ProbeTarget target;
            try {
                target = simulation.resolve(flow);
            } catch (FlowSimulation.UnansweredName e) {
                skipped.add(new Skipped(flow.name(), "nobody answers its name: " + e.getMessage()));
                continue;
            } catch (IllegalArgumentException e) {
                skipped.add(new Skipped(flow.name(), e.getMessage()));
                continue;
            }
            Optional<HostNamespace> source = layout.host(target.source());
            if (source.isEmpty()) {
                skipped.add(new Skipped(flow.name(), "the lab has no namespace for " + target.source()));
                continue;
            }
            List<TracePath> delivered = simulation.paths(target, probePort).stream()
                    .filter(p -> p.disposition().equals("delivered") && !p.forward().isEmpty()).toList();
            if (delivered.isEmpty()) {
                skipped.add(new Skipped(flow.name(), "the simulator delivers none of its packets (see 'periscope trace --flow " + flow.name() + "')"));
                continue;
            }
            Set<String> ends = new LinkedHashSet<>();
            delivered.forEach(p -> ends.add(p.forward().getLast().node() + ":" + p.forward().getLast().arrive().dport()));
            TraceHop last = delivered.getFirst().forward().getLast();
            Optional<HostNamespace> server = layout.hosts().stream().filter(h -> h.host().toString().equals(last.node())).findFirst();
            if (server.isEmpty()) {
                skipped.add(new Skipped(flow.name(), "the lab has no namespace for " + last.node()));
                continue;
            }
            if (server.get().host().cluster().equals(target.source().cluster())) {
                skipped.add(new Skipped(flow.name(), "it stays in cluster " + target.source().cluster() + "; the bench measures traffic between clusters"));
                continue;
            }
            if (ends.size() > 1) {
                skipped.add(new Skipped(flow.name(), "its connections can end at " + ends.size() + " places (" + String.join(", ", ends)
                        + "): kube-proxy would spread one iperf3 test's streams over them; point it at one pod"));
                continue;
            }
            String end = ends.iterator().next();
            if (servers.containsKey(end)) {
                skipped.add(new Skipped(flow.name(), "its server " + end + " already serves flow " + servers.get(end)
                        + ", and iperf3 serves one test at a time on a port"));
                continue;
            }
            servers.put(end, flow.name());
            Ipv4Address sentFrom = target.sourceIp().orElseGet(() -> delivered.getFirst().forward().getFirst().depart()
                    .map(p -> p.src()).orElse(delivered.getFirst().forward().getFirst().arrive().src()));
            pairs.add(new Pair(pairs.size(), flow.name(), target.source(), source.get().namespace(), target.sourceIp(), sentFrom,
                    target.destination(), target.port(), server.get().host(), server.get().namespace(), last.arrive().dport()));
        }
        return new Pairs(pairs, skipped);
    }

    /**
     * {@code flows} streams spread round-robin over {@code pairs} pairs: stream {@code i} belongs to pair
     * {@code i % pairs}. Each pair's streams get consecutive source ports in stream order (iperf3's
     * {@code --cport} numbers a test's streams so), the pairs' blocks one after the other from
     * {@code firstPort}, a block moved past any port in {@code avoid} (a server's port in one of the
     * source namespaces).
     *
     * @throws IllegalArgumentException for no pair, fewer than one flow, or more than {@link #MAX_STREAMS_PER_PAIR} streams on a pair
     */
    public static List<Stream> streams(int pairs, int flows, int firstPort, Set<Integer> avoid) {
        if (pairs < 1 || flows < 1) {
            throw new IllegalArgumentException("streams need a pair and a flow, not " + pairs + " pairs and " + flows + " flows");
        }
        int most = (flows + pairs - 1) / pairs;
        if (most > MAX_STREAMS_PER_PAIR) {
            throw new IllegalArgumentException(flows + " flows over " + pairs + " pair" + (pairs == 1 ? "" : "s") + " put " + most
                    + " streams on one iperf3 client, which runs " + MAX_STREAMS_PER_PAIR + " at most; ask for at most "
                    + MAX_STREAMS_PER_PAIR * pairs + " flows, or add pairs to the file");
        }
        int[] first = new int[pairs];
        int next = firstPort;
        for (int p = 0; p < pairs; p++) {
            int count = flows / pairs + (p < flows % pairs ? 1 : 0);
            int start = next;
            while (blocked(start, count, avoid)) {
                start++;
            }
            first[p] = start;
            next = start + count;
        }
        List<Stream> streams = new ArrayList<>();
        for (int i = 0; i < flows; i++) {
            streams.add(new Stream(i, i % pairs, first[i % pairs] + i / pairs));
        }
        return streams;
    }

    private static boolean blocked(int start, int count, Set<Integer> avoid) {
        for (int port = start; port < start + count; port++) {
            if (avoid.contains(port)) {
                return true;
            }
        }
        return false;
    }

    /** A pair's streams in port order, as its client opens them. */
    public static List<Stream> of(List<Stream> streams, int pair) {
        return streams.stream().filter(s -> s.pair() == pair).sorted(java.util.Comparator.comparingInt(Stream::sourcePort)).toList();
    }

    static String ports(List<Stream> streams) {
        if (streams.isEmpty()) {
            return "none";
        }
        int low = streams.stream().mapToInt(Stream::sourcePort).min().orElseThrow();
        int high = streams.stream().mapToInt(Stream::sourcePort).max().orElseThrow();
        return low == high ? Integer.toString(low) : low + "-" + high;
    }

    static String names(List<Pair> pairs) {
        return pairs.stream().map(Pair::flow).collect(Collectors.joining(", "));
    }
}
