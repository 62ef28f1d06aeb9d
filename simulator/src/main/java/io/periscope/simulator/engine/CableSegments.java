package io.periscope.simulator.engine;

import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.conntrack.Connection;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.link.Wiring;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The walks that begin where a flow's packet arrives by a cable, counted once and shared by the flows
 * that reach the same state there: the segment of a path in the remote cluster, from the forward
 * packet's arrival at the remote gateway to wherever its replies leave by a cable again.
 *
 * <p>Two source pods whose packets leave their gateway as one packet (Globalnet gives a namespace or a
 * cluster one egress address, and the reachability matrix sends from the same port) differ in nothing
 * the remote cluster reads: the remote gateway sees the same datagram, kube-proxy forks into the same
 * endpoints, and the replies come back the same way. What differs is the sender's own state (its
 * address, its gateway's conntrack entry, the answer its socket expects), and the walk reads it only
 * after the reply has crossed back. So a segment keeps: how many paths ended inside it, delivered and
 * not, and its exits, each the reply's state where it arrives by a cable at the sending side, with the
 * conntrack entries the segment made. A flow that reaches a known segment adds its counts and walks
 * only the exits, with its own conntrack state and its own expected answer ({@link SuffixMemo} then
 * counts their suffixes once per flow).
 *
 * <p>What the walk of a segment reads, and so its {@link Key}: the host and interface it arrives by,
 * the packet and tunnel, the MSS option, the TCP segment, how the sending socket fragments, the
 * length the replies reassemble to, the hop and pass counts that bound a loop, whether conntrack found
 * the packet INVALID before; and the conntrack entries of every host it arrives at, compared when the
 * segment is reused (conntrack is per network namespace: the walk on a host reads no other host's
 * entries). The flow's own packet as sent, its source host and the answer it expects are read only by
 * a reply that is delivered: a segment in which a reply is delivered before leaving by a cable is not
 * kept. The netfilter chains a segment entered, with their packets, are kept too, and told again to the
 * chain observer of a flow that reuses it (the matrix reads them to find rules naming a pod).
 *
 * <p>Kept for the flows of one service at a time (the matrix clears it between services: a segment of
 * another service is never met again); not thread-safe.
 */
public final class CableSegments {

    private final Map<Key, List<Segment>> segments = new HashMap<>();
    private long reused;
    private Recording recording;

    /** Forgets every segment. */
    public void clear() {
        segments.clear();
    }

    /** How many times a segment's counts were reused rather than walked. */
    public long reused() {
        return reused;
    }

    /** Where a segment begins: a forward packet arriving at {@code host} by a cable, {@code in}. */
    record Key(int host, String in, Packet packet, Tunnel tunnel, int mss, TcpSegment segment, boolean socketFragments, int originLength,
               int hopCount, int passes, boolean invalidSeen) {
    }

    /** A reply leaving the segment: where it arrives, its state there, and the conntrack entries made since the segment began. */
    record Exit(Wiring.Port port, Visit visit, List<Connection> made) {
    }

    /**
     * The hosts a segment arrived at, their entries when it began, the paths that ended inside it, its
     * exits, and the chains it entered.
     */
    record Segment(int[] hosts, List<?>[] entries, long delivered, long paths, List<Exit> exits, List<Entered> chains) {
    }

    /** A netfilter chain entered, as a {@code ChainObserver} is told of it. */
    record Entered(HostId host, Table table, String chain, Packet packet) {
    }

    /** The walk of a flow that shares these segments entered a chain: the segment being walked keeps it. */
    public void entered(HostId host, Table table, String chain, Packet packet) {
        if (walking() && recording.kept) {
            recording.chains.add(new Entered(host, table, chain, packet));
        }
    }

    /**
     * Whether {@code v}'s arrival begins a segment: a forward packet by a cable.
     * A segment may begin inside another (a node's tunnel to its own gateway, then the cable between
     * clusters); the outer one is then not kept, as its packet still carries what is the flow's own.
     */
    boolean begins(Visit v, boolean forward) {
        return forward && v.tunnel != null && (recording == null || recording.suspended == 0);
    }

    /** A segment begins inside those being walked: none of them is kept. */
    void nested() {
        for (Recording r = recording; r != null; r = r.outer) {
            r.kept = false;
        }
    }

    Key key(Visit v, Wiring.Port port) {
        return new Key(port.host(), port.iface(), v.packet, v.tunnel, v.mss, v.segment, v.socketFragments, v.origin.length(), v.hopCount,
                v.passes, v.invalidAt != null);
    }

    /**
     * A segment walked before from {@code key} whose hosts hold the same entries in {@code conntrack}, and
     * that the endpoint folds {@code memo} has under way allow to reuse; null when there is none.
     */
    Segment known(Key key, ConntrackState conntrack, SuffixMemo memo) {
        List<Segment> known = segments.get(key);
        if (known == null) {
            return null;
        }
        for (Segment s : known) {
            if (conntrack.holdsOn(s.hosts(), s.entries()) && memo.foldsAllowReuse(key.host(), key.packet(), key.tunnel(), s.hosts(),
                    s.entries())) {
                reused++;
                return s;
            }
        }
        return null;
    }

    /** A segment begins at {@code host} with the state {@code conntrack}; the flow has counted what {@code memo} holds. */
    void open(Key key, ConntrackState conntrack, int host, SuffixMemo memo) {
        recording = new Recording(key, conntrack, memo.delivered(), memo.paths(), recording);
        recording.hosts.add(host);
    }

    /** Whether a segment is being walked, and not one of its exits. */
    boolean walking() {
        return recording != null && recording.suspended == 0;
    }

    /** The segment's walk arrives at {@code host}: its entries are read. */
    void arrived(int host) {
        if (walking() && !recording.hosts.contains(host)) {
            recording.hosts.add(host);
        }
    }

    /** A reply leaves the segment by a cable at {@code port}: kept with the entries made since the segment began. */
    void exit(Wiring.Port port, Visit v) {
        if (!recording.kept) {
            return;
        }
        List<Connection> made = v.conntrack.since(recording.start);
        if (made == null) {
            recording.kept = false;
            return;
        }
        recording.exits.add(new Exit(port, v.copy(), made));
    }

    /** What follows an exit is the flow's own: not the segment's. Returns the counts before it, for {@link #resume}. */
    long[] suspend(SuffixMemo memo) {
        recording.suspended++;
        return new long[] {memo.delivered(), memo.paths()};
    }

    void resume(SuffixMemo memo, long[] before) {
        recording.suspended--;
        recording.exitDelivered += memo.delivered() - before[0];
        recording.exitPaths += memo.paths() - before[1];
    }

    /** A reply was delivered inside the segment: whether the path counts depends on the flow's sender, so the segment is not kept. */
    void replyDelivered() {
        if (walking()) {
            recording.kept = false;
        }
    }

    /** The segment is walked: kept with what it counted, unless something in it depended on the flow. */
    void close(SuffixMemo memo) {
        Recording r = recording;
        recording = r.outer;
        if (!r.kept) {
            return;
        }
        int[] hosts = r.hosts.stream().mapToInt(Integer::intValue).toArray();
        List<?>[] entries = new List<?>[hosts.length];
        for (int i = 0; i < hosts.length; i++) {
            entries[i] = r.start.entriesOf(hosts[i]);
        }
        segments.computeIfAbsent(r.key, k -> new ArrayList<>(1)).add(new Segment(hosts, entries,
                memo.delivered() - r.delivered - r.exitDelivered, memo.paths() - r.paths - r.exitPaths, List.copyOf(r.exits),
                List.copyOf(r.chains)));
    }

    /** The segment being walked, and the one it began inside. */
    private static final class Recording {
        final Recording outer;
        final Key key;
        final ConntrackState start;
        final long delivered;
        final long paths;
        final List<Integer> hosts = new ArrayList<>(8);
        final List<Exit> exits = new ArrayList<>();
        /** In the order entered, repeats and all: hashing each to keep it once cost more than telling it again. */
        final List<Entered> chains = new ArrayList<>();
        long exitDelivered;
        long exitPaths;
        int suspended;
        boolean kept = true;

        Recording(Key key, ConntrackState start, long delivered, long paths, Recording outer) {
            this.outer = outer;
            this.key = key;
            this.start = start;
            this.delivered = delivered;
            this.paths = paths;
        }
    }
}
