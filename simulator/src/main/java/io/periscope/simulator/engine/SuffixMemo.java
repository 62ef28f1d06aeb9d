package io.periscope.simulator.engine;

import io.periscope.plan.HostId;
import io.periscope.simulator.conntrack.Connection;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.link.Wiring;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How the paths of one flow end, counted, and how many of them each suffix of its walk gave, so that a
 * branch reaching a state counted before adds that suffix's counts instead of being walked again.
 *
 * <p>A flow's paths fork at every multipath route and every kube-proxy endpoint, and converge again:
 * once the remote gateway has undone its DNAT, the replies of a hundred endpoints are one packet, and
 * the rest of their walk, through the sender's gateway to the sender, is the same. A suffix begins
 * where a packet arrives at a host, and includes every branch that follows from there, forward and the
 * replies of the deliveries among them; only some are kept ({@link #keeps}).
 *
 * <p>What a suffix's count depends on: the {@link Key} (the host and interface, the packet and the
 * tunnel it travels in, its MSS option, which TCP segment it is, the hop and pass counts that bound a
 * loop, the packet the flow's sender sent or, on a reply, the answer that sender expects and the size
 * of the reply as sent, and the host's conntrack entries), and the conntrack entries of every other
 * host the suffix went through. Conntrack is per network namespace, so the walk on a host reads no
 * other host's entries, and every other part of the walk's state is written on a host before it is
 * read there (the mark starts at 0 on every host). A suffix is reused only where all those hosts hold
 * the same entries as when it was counted; the hosts of a suffix reused count as gone through for the
 * suffixes around it.
 *
 * <p>One per flow (the sender's host and socket are the flow's); not thread-safe.
 */
public final class SuffixMemo {

    private final Map<Key, List<Suffix>> suffixes = new HashMap<>();
    /** The segments shared with other flows, null when none are. */
    private final CableSegments segments;
    private final EndpointClasses classes;
    /** The folds whose first branch is being walked, innermost last. */
    private final List<EndpointFold> folds = new ArrayList<>(1);
    private long folded;
    /** Where the replies of this flow end: counted against {@link #expected}. */
    private Consumer<Ending> replies;
    private long delivered;
    private long paths;
    private long reused;
    /** The answer the sender's socket expects, while a reply is walked; null on the forward walk. */
    private Packet expected;

    // The hosts each open suffix went through, innermost last: the suffix opened k-th owns
    // hosts[start[k] .. (k + 1 < open ? start[k + 1] : top)), a nested one's hosts after its parent's.
    private int[] hosts = new int[16];
    private int top;
    private int[] start = new int[8];
    private int open;

    /** A memo of one flow alone. */
    public SuffixMemo() {
        this(null);
    }

    /** A memo of one flow that shares {@code segments} (when not null) with the flows counted before it. */
    public SuffixMemo(CableSegments segments) {
        this(segments, null);
    }

    /**
     * A memo of one flow that shares {@code segments} (when not null) with the flows counted before it,
     * and walks the branches of a fork into alike endpoints ({@code classes}, when not null) once.
     */
    public SuffixMemo(CableSegments segments, EndpointClasses classes) {
        this.segments = segments;
        this.classes = classes;
    }

    CableSegments segments() {
        return segments;
    }

    /** The classes of alike endpoints whose branches are walked once; null when every branch is walked. */
    EndpointClasses endpointClasses() {
        return classes;
    }

    /** A fold's first branch is being walked: what it meets is shown to the fold. */
    void begin(EndpointFold fold) {
        folds.add(fold);
    }

    /** The first branch of {@code fold}, the innermost fold under way, is walked. */
    void end(EndpointFold fold) {
        if (folds.removeLast() != fold) {
            throw new IllegalStateException("folds ended out of order");
        }
    }

    /** Whether the first branch of a fold is being walked. */
    boolean folding() {
        return !folds.isEmpty();
    }

    /** The observer of a walk begun now: the fold under way, which tells {@code chains}, else {@code chains}. */
    public ChainObserver observing(ChainObserver chains) {
        return folds.isEmpty() ? chains : folds.getLast();
    }

    /** A packet of the walk goes from host {@code from} to host {@code to}: shown to the folds under way. */
    void arriving(HostId from, HostId to, Packet packet, Tunnel tunnel) {
        for (EndpointFold fold : folds) {
            fold.crossing(from, to, packet, tunnel);
        }
    }

    /** Whether every fold under way allows reusing a walk counted before (see {@link EndpointFold#allowsReuse}). */
    boolean foldsAllowReuse(int host, Packet packet, Tunnel tunnel, int[] through, List<?>[] entries) {
        for (EndpointFold fold : folds) {
            if (!fold.allowsReuse(host, packet, tunnel, through, entries)) {
                return false;
            }
        }
        return true;
    }

    /** {@code branches} more branches of a fork were counted as the first one of their class. */
    void folded(long branches) {
        folded += branches;
    }

    /** How many branches of forks into endpoints were counted as another of their class, not walked. */
    public long folded() {
        return folded;
    }

    /** Where the flow's replies end, for the exits of a segment walked by another flow. */
    public void replies(Consumer<Ending> sink) {
        replies = sink;
    }

    Consumer<Ending> replies() {
        return replies;
    }

    /** The answer the sender expects while a reply is walked; null on the forward walk. */
    public Packet expected() {
        return expected;
    }

    /**
     * Counts a reply path that ended: {@code answered} when it delivered what the sender expects;
     * {@code reachedASocket} when it was delivered anywhere (a segment in which that happens depends on
     * who the sender is, see {@link CableSegments}).
     */
    public void countedReply(boolean reachedASocket, boolean answered) {
        if (reachedASocket && segments != null) {
            segments.replyDelivered();
        }
        counted(answered);
    }

    /** Adds counts not walked here: a segment another flow walked, or the folded branches of a fork (see {@link EndpointFold}). */
    void add(long segmentDelivered, long segmentPaths) {
        delivered += segmentDelivered;
        paths += segmentPaths;
    }

    /** Whether {@code v} is on the forward walk (no reply is being walked). */
    boolean forward() {
        return expected == null;
    }

    /** Counts a path that ended, delivered or not. */
    public void counted(boolean pathDelivered) {
        paths++;
        if (pathDelivered) {
            delivered++;
        }
    }

    public long delivered() {
        return delivered;
    }

    public long paths() {
        return paths;
    }

    /** The hosts each kept suffix went through, whose entries decide where it is reused (by host index). */
    public List<int[]> keptHosts() {
        return suffixes.values().stream().flatMap(List::stream).map(s -> s.hosts().clone()).toList();
    }

    /** How many times a suffix's count was reused rather than walked. */
    public long reused() {
        return reused;
    }

    /**
     * The answer the sender's socket expects while the reply to one delivery is walked, null for the
     * forward walk: whether a reply path delivers depends on it. Returns the one it replaces.
     */
    public Packet expecting(Packet answer) {
        Packet before = expected;
        expected = answer;
        return before;
    }

    /**
     * Whether the suffix beginning with {@code v}'s arrival is kept: where a reply arrives by a cable
     * (VXLAN, WireGuard, ESP). By then the remote cluster has undone its translations, so the replies
     * of different endpoints, which forked at the remote kube-proxy, are one packet again; the rest of
     * their walk, through the sender's gateway to the sender, is walked once. The forward branches of
     * a flow differ by what they forked on (a nexthop, an endpoint) from there on, and replies meet
     * nowhere earlier. Keeping every reply arrival's suffix cost more than it saved: on 500 flows of
     * the 400-path set of {@code scripts/benchmark-check}, 8% more CPU time than no memo, against 20%
     * less when only the cable's arrivals are kept.
     */
    boolean keeps(Visit v) {
        return expected != null && v.tunnel != null;
    }

    /**
     * Where a suffix begins: a packet arriving at {@code host} by {@code in}.
     *
     * @param entries the host's conntrack entries, newest first
     */
    record Key(int host, String in, Packet packet, Tunnel tunnel, int mss, TcpSegment segment, boolean socketFragments, Packet origin,
               int originLength, Packet expected, int hopCount, int passes, boolean invalidSeen, List<Connection> entries) {
    }

    /** A suffix's counts, and the hosts it went through with their conntrack entries when it began. */
    private record Suffix(int[] hosts, List<?>[] entries, long delivered, long paths) {
    }

    /** The key of the suffix that begins with {@code v} arriving at {@code port}. */
    Key key(Visit v, Wiring.Port port) {
        // A forward packet's origin is what its replies are expected to answer; of a reply's own origin
        // (the answer as its socket sent it) only the size counts, which reassembly restores.
        return new Key(port.host(), port.iface(), v.packet, v.tunnel, v.mss, v.segment, v.socketFragments, expected == null ? v.origin : null,
                v.origin.length(), expected, v.hopCount, v.passes, v.invalidAt != null, v.conntrack.entriesOf(port.host()));
    }

    /**
     * Adds the counts of a suffix counted before for {@code key} whose hosts hold the same entries in
     * {@code conntrack} as when it was counted; false when there is none.
     */
    boolean reuse(Key key, ConntrackState conntrack) {
        List<Suffix> known = suffixes.get(key);
        if (known == null) {
            return false;
        }
        for (Suffix s : known) {
            if (conntrack.holdsOn(s.hosts(), s.entries())
                    && (folds.isEmpty() || foldsAllowReuse(key.host(), key.packet(), key.tunnel(), s.hosts(), s.entries()))) {
                reused++;
                delivered += s.delivered();
                paths += s.paths();
                for (int host : s.hosts()) {
                    through(host);
                }
                return true;
            }
        }
        return false;
    }

    /** A suffix begins at {@code host}; returns the paths counted so far, for {@link #close}. */
    long[] open(int host) {
        if (open == start.length) {
            start = Arrays.copyOf(start, open * 2);
        }
        start[open++] = top;
        through(host);
        return new long[] {delivered, paths};
    }

    /** The walk of a branch is on {@code host}: the suffixes open now depend on its entries. */
    void through(int host) {
        if (open == 0) {
            return;
        }
        for (int i = start[open - 1]; i < top; i++) {
            if (hosts[i] == host) {
                return;
            }
        }
        if (top == hosts.length) {
            hosts = Arrays.copyOf(hosts, top * 2);
        }
        hosts[top++] = host;
    }

    /**
     * The suffix opened last is walked: it is kept for {@code key} with what it counted since
     * {@code before} and the entries {@code conntrack} (the state it began with) held on its hosts,
     * and its hosts become its parent's.
     */
    void close(Key key, ConntrackState conntrack, long[] before) {
        int from = start[--open];
        int[] through = Arrays.copyOfRange(hosts, from, top);
        List<?>[] entries = new List<?>[through.length];
        for (int i = 0; i < through.length; i++) {
            entries[i] = conntrack.entriesOf(through[i]);
        }
        suffixes.computeIfAbsent(key, k -> new ArrayList<>(1))
                .add(new Suffix(through, entries, delivered - before[0], paths - before[1]));
        top = from;
        for (int host : through) {
            through(host);
        }
    }
}
