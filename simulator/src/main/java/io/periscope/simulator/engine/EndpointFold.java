package io.periscope.simulator.engine;

import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.conntrack.Connection;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.netfilter.TableRun;
import io.periscope.simulator.netfilter.Verdict;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Consumer;

/**
 * A counting walk's fork into a service's endpoints, with the branches to alike pods walked once.
 *
 * <p>Where kube-proxy forks a flow (a {@code statistic} rule followed both ways), each branch DNATs to
 * one endpoint. Take two branches whose table outcomes are equal but for the address they DNAT to, the
 * first to pod P and the other to pod Q, both of one {@link EndpointClasses class} of cluster C. Swap
 * the two addresses in everything of cluster C (its hosts' packets and conntrack entries; P's network
 * namespace for Q's) and leave everything outside C as it is: the first branch's state at the fork
 * becomes the other's, and so does every step after it, as long as nothing the walk reads tells P and Q
 * apart. What the class vouches for covers the plan's prefixes, ipsets, routes and interfaces; the rest
 * is checked here:
 *
 * <ul>
 *   <li>at the fork, nothing of cluster C carries an address of the class (the packet, the conntrack
 *       entries of C's hosts) and the class's pods hold no conntrack entry, so that the swap changes
 *       nothing but the DNAT;</li>
 *   <li>while the first branch is walked: no chain of C that it evaluates names an address of the class
 *       (every built-in chain of a stage is evaluated then, not only those that could act on the packet,
 *       see {@link ChainObserver#seesEveryChain}); no packet carrying one crosses between C and another
 *       cluster, where the same address is another pod's or nobody's; and a suffix or segment counted
 *       before is reused only from a state the swap leaves as it is (its packet, when it begins in C,
 *       and the entries of C's hosts it read carry none of the class's addresses, and it touches none of
 *       its pods), else it is walked.</li>
 * </ul>
 *
 * When all of that held, each other branch of the class is counted as the first one counted: its
 * delivered and total paths added again, and the chains of C it entered told to the walk's observer
 * again with the addresses swapped (the reachability matrix's observer compares packets' addresses with
 * its sender's, which may be the same as a pod's of C in an overlapping cluster). When it did not, the
 * other branches are walked one by one. A segment of {@link CableSegments} being walked when branches
 * are folded is not kept, since its exits lack the folded branches' replies.
 */
final class EndpointFold implements ChainObserver {

    private final EndpointClasses classes;
    private final String cluster;
    private final CompiledNetwork network;
    /** The observer of the walk, told of everything this fold is told of. */
    private final ChainObserver inner;
    /** The network namespaces of the class's pods in this fork, the first branch's first. */
    private final int[] podHosts;
    /** The network namespace of the first branch's pod. */
    private final HostId firstPod;
    /**
     * Those pods' addresses, sorted: the addresses swapped. Another pod of the class (the sender, when
     * it is a backend too) is left as it is, so a state may carry its address.
     */
    private final int[] addresses;
    /** The chains of C the first branch entered that the observer reads, to be told again for each other branch. */
    private final List<Entered> entered = new ArrayList<>();
    /** Something the first branch met could tell the class's pods apart. */
    private boolean spoiled;

    private record Entered(HostId host, Table table, String chain, Packet packet) {
    }

    private EndpointFold(EndpointClasses classes, int classId, CompiledNetwork network, ChainObserver inner, int[] podHosts,
                         int[] addresses) {
        this.classes = classes;
        this.cluster = classes.cluster(classId);
        this.network = network;
        this.inner = inner;
        this.podHosts = podHosts;
        this.firstPod = network.host(podHosts[0]).id;
        this.addresses = addresses.clone();
        Arrays.sort(this.addresses);
    }

    /**
     * Walks the outcomes of a nat table that forked on {@code host}: each with {@code takeOver} (false:
     * the branch ended) and then {@code onward}, the outcomes that DNAT to alike pods once per class.
     */
    static void walk(Visit v, HostId host, List<TableRun> outcomes, CompiledNetwork network, BiPredicate<Visit, TableRun> takeOver,
                     Consumer<Visit> onward) {
        SuffixMemo memo = v.memo;
        EndpointClasses classes = memo.endpointClasses();
        // Each outcome's group, in the order of the groups' first outcomes, then each group's outcomes
        // gathered in arrays of its size: a fork into a hundred endpoints grew a list for every group.
        int n = outcomes.size();
        EndpointClasses.Member[] members = new EndpointClasses.Member[n];
        int[] groupOf = new int[n];
        int[] firstOf = new int[n];
        int[] sizes = new int[n];
        int groupCount = 0;
        for (int i = 0; i < n; i++) {
            TableRun o = outcomes.get(i);
            EndpointClasses.Member m = memberOf(classes, host, o);
            members[i] = m;
            int g = m == null ? -1 : groupOf(outcomes, members, firstOf, groupCount, m.classId, o);
            if (g < 0) {
                g = groupCount++;
                firstOf[g] = i;
            }
            groupOf[i] = g;
            sizes[g]++;
        }
        for (int g = 0; g < groupCount; g++) {
            TableRun[] runs = new TableRun[sizes[g]];
            EndpointClasses.Member[] groupMembers = new EndpointClasses.Member[sizes[g]];
            for (int i = firstOf[g], k = 0; k < runs.length; i++) {
                if (groupOf[i] == g) {
                    runs[k] = outcomes.get(i);
                    groupMembers[k++] = members[i];
                }
            }
            List<TableRun> group = Arrays.asList(runs);
            int c = groupMembers[0] == null ? EndpointClasses.NONE : groupMembers[0].classId;
            int[] podHosts = group.size() < 2 ? null : podHosts(groupMembers, network);
            EndpointFold fold = podHosts == null ? null
                    : new EndpointFold(classes, c, network, v.observer, podHosts, group.stream().mapToInt(EndpointFold::dnatAddress).toArray());
            if (fold == null || !fold.unmarked(v)) {
                for (TableRun o : group) {
                    walkOne(v, o, takeOver, onward);
                }
                continue;
            }
            boolean segmentOpen = memo.segments() != null && memo.segments().walking();
            long delivered = memo.delivered();
            long paths = memo.paths();
            Visit first = v.copy();
            first.observer = fold;
            memo.begin(fold);
            try {
                if (takeOver.test(first, group.getFirst())) {
                    onward.accept(first);
                }
            } finally {
                memo.end(fold);
            }
            if (fold.spoiled) {
                for (TableRun o : group.subList(1, group.size())) {
                    walkOne(v, o, takeOver, onward);
                }
                continue;
            }
            int others = group.size() - 1;
            memo.add((memo.delivered() - delivered) * others, (memo.paths() - paths) * others);
            for (int i = 1; i < podHosts.length; i++) {
                // The folded branches read their own pods' (empty) conntrack tables: so do the suffixes around them.
                memo.through(podHosts[i]);
                fold.tellAgain(dnatAddress(group.getFirst()), dnatAddress(group.get(i)), podHosts[i]);
            }
            memo.folded(others);
            if (segmentOpen) {
                memo.segments().nested();
            }
        }
    }

    private static void walkOne(Visit v, TableRun o, BiPredicate<Visit, TableRun> takeOver, Consumer<Visit> onward) {
        Visit b = v.copy();
        if (takeOver.test(b, o)) {
            onward.accept(b);
        }
    }

    /** The pod the outcome DNATs to, when it is of a class; else null. */
    private static EndpointClasses.Member memberOf(EndpointClasses classes, HostId host, TableRun o) {
        if (o.verdict() != Verdict.NAT || o.decidedBy() == null || !(o.decidedBy().target() instanceof Target.Dnat d)) {
            return null;
        }
        return classes.memberOf(host, d.toAddress().bits());
    }

    private static int dnatAddress(TableRun o) {
        return ((Target.Dnat) o.decidedBy().target()).toAddress().bits();
    }

    /** The group of the first {@code groups} (by their first outcomes, {@code firstOf}) that {@code o} of class {@code c} joins; -1 for none. */
    private static int groupOf(List<TableRun> outcomes, EndpointClasses.Member[] members, int[] firstOf, int groups, int c, TableRun o) {
        for (int g = 0; g < groups; g++) {
            EndpointClasses.Member first = members[firstOf[g]];
            if (first != null && first.classId == c && equalButTheAddress(outcomes.get(firstOf[g]), o)) {
                return g;
            }
        }
        return -1;
    }

    /** Whether two nat outcomes did the same to the packet but for the address they DNAT to. */
    private static boolean equalButTheAddress(TableRun a, TableRun b) {
        if (a.mark() != b.mark() || a.connmark() != b.connmark() || a.mss() != b.mss() || a.notrack() != b.notrack()
                || a.hits() != b.hits()) {
            return false;
        }
        for (int i = 0; i < a.hits(); i++) {
            if (a.hitRule(i) != b.hitRule(i) || a.hitMark(i) != b.hitMark(i)) {
                return false;
            }
        }
        return ((Target.Dnat) a.decidedBy().target()).toPort().equals(((Target.Dnat) b.decidedBy().target()).toPort());
    }

    /** The host indexes of the outcomes' pods, in order; null when a pod is not in the network. */
    private static int[] podHosts(EndpointClasses.Member[] members, CompiledNetwork network) {
        int[] indexes = new int[members.length];
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = members[i].index(network);
            if (indexes[i] < 0) {
                return null;
            }
        }
        return indexes;
    }

    /**
     * Whether nothing of cluster C in {@code v}'s state carries one of the addresses swapped (the packet
     * at the fork, which is in C, and its conntrack layer's connection and packets; the entries of C's
     * hosts), and the pods hold no conntrack entry.
     */
    private boolean unmarked(Visit v) {
        if (carries(v.packet, v.tunnel) || v.conn != null && carries(v.conn) || v.ctOriginal != null && carries(v.ctOriginal, null)
                || v.ctPacket != null && carries(v.ctPacket, null) || v.conntrack.any(conn -> inCluster(conn.host()) && carries(conn))) {
            return false;
        }
        for (int h : podHosts) {
            if (h == v.host.index || !v.conntrack.entriesOf(h).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private boolean inCluster(int host) {
        return network.host(host).id.cluster().equals(cluster);
    }

    private boolean carries(Connection conn) {
        return carries(conn.original(), null) || carries(conn.reply(), null);
    }

    /** Whether the packet, or a packet it tunnels, has one of the addresses swapped. */
    private boolean carries(Packet packet, Tunnel tunnel) {
        if (swapped(packet.src().bits()) || swapped(packet.dst().bits())) {
            return true;
        }
        for (Tunnel t = tunnel; t != null; t = t.innerTunnel()) {
            Packet in = t.inner();
            if (swapped(in.src().bits()) || swapped(in.dst().bits())) {
                return true;
            }
        }
        return false;
    }

    private boolean swapped(int address) {
        return Arrays.binarySearch(addresses, address) >= 0;
    }

    /** Tells the walk's observer again of the chains of C the first branch entered, as the branch to {@code other}'s pod would have. */
    private void tellAgain(int first, int other, int otherPod) {
        if (entered.isEmpty()) {
            return;
        }
        HostId otherPodId = network.host(otherPod).id;
        for (Entered e : entered) {
            // Each compiled host reports its chains with its one id object.
            HostId host = e.host() == firstPod ? otherPodId : e.host();
            inner.entered(host, e.table(), e.chain(), swapped(e.packet(), first, other));
        }
    }

    /** {@code packet} with address {@code a} where it has {@code b} and the other way round. */
    private static Packet swapped(Packet packet, int a, int b) {
        int src = packet.src().bits();
        int dst = packet.dst().bits();
        Packet p = packet;
        if (src == a || src == b) {
            p = p.withSource(new io.periscope.model.net.Ipv4Address(src == a ? b : a), p.sport());
        }
        if (dst == a || dst == b) {
            p = p.withDestination(new io.periscope.model.net.Ipv4Address(dst == a ? b : a), p.dport());
        }
        return p;
    }

    // ---------------------------------------------------------------- while the first branch is walked

    @Override
    public void entered(HostId host, Table table, String chain, Packet packet) {
        boolean ofCluster = host.cluster().equals(cluster);
        if (ofCluster && !spoiled && classes.names(host, table, chain, addresses)) {
            spoiled = true;
        }
        if (inner != null) {
            inner.entered(host, table, chain, packet);
            // Told again with the addresses swapped only where that changes what the observer is told:
            // a chain may be reported more than once, so the rest was told for every branch already.
            if (ofCluster && (host == firstPod || carries(packet, null)) && !inner.ignores(host, table, chain)) {
                entered.add(new Entered(host, table, chain, packet));
            }
        }
    }

    @Override
    public boolean seesEveryChain() {
        return true;
    }

    /** The first branch's packet goes from host {@code from} to host {@code to}: into or out of C, it must carry none of the class's addresses. */
    void crossing(HostId from, HostId to, Packet packet, Tunnel tunnel) {
        if (!spoiled && from.cluster().equals(cluster) != to.cluster().equals(cluster) && carries(packet, tunnel)) {
            spoiled = true;
        }
    }

    /**
     * Whether a walk counted before may be reused inside the first branch: it begins at {@code host} with
     * {@code packet} in {@code tunnel}, went through {@code through} holding {@code entries}, and the swap
     * of the class's addresses in C leaves all of that as it is.
     */
    boolean allowsReuse(int host, Packet packet, Tunnel tunnel, int[] through, List<?>[] entries) {
        for (int pod : podHosts) {
            if (host == pod) {
                return false;
            }
            for (int h : through) {
                if (h == pod) {
                    return false;
                }
            }
        }
        if (inCluster(host) && carries(packet, tunnel)) {
            return false;
        }
        for (int i = 0; i < through.length; i++) {
            if (!inCluster(through[i])) {
                continue;
            }
            for (Object o : entries[i]) {
                if (carries((Connection) o)) {
                    return false;
                }
            }
        }
        return true;
    }
}
