package io.periscope.simulator.netfilter;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.simulator.hash.Jhash;
import io.periscope.simulator.routing.MultipathHash;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One traversal of a table's built-in chain by one packet: what the matches look at (packet,
 * interfaces, marks, conntrack state) and what the rules did (marks, notrack, rule hits, the verdict).
 * A {@code statistic} match that is followed both ways copies the run, so each outcome is a run.
 *
 * <p>A packet's walk runs over a hundred tables per flow, so one run object may serve them one after
 * another ({@link #start}) once the previous outcome has been taken over; the hits are kept in arrays
 * for the same reason.
 */
public final class TableRun {

    private static final List<String> NO_CHOICES = List.of();

    Packet packet;
    /**
     * The packet's fields the rules test, copied out when the run starts: every rule reads them, and
     * through the packet and its address records each was a chain of loads. Ports are -1 for a
     * protocol without them, which no port match equals.
     */
    int src;
    int dst;
    int sport;
    int dport;
    Protocol protocol;
    String in;
    String out;
    int ctStates;
    boolean followAll;

    int mark;
    int connmark;
    /** The MSS option of the TCP SYN (or SYN-ACK) being traversed; 0 for any other packet. */
    int mss;
    boolean notrack;
    private CompiledRule[] hitRules;
    private int[] hitMarks;
    private int hits;
    /**
     * The hit arrays are another run's too (a fork's copy and the run it was copied from share them
     * until either records a hit): a fork into a hundred endpoints copied them for every branch, and
     * most branches record no hit of their own.
     */
    private boolean hitsShared;
    List<String> choices;
    Verdict verdict;
    CompiledRule decidedBy;
    /** Where the chains entered are reported, with the host they belong to; null when nobody asks. */
    ChainObserver observer;
    HostId host;
    /** The host's ruleset being traversed: where a chain shared between hosts starts on it, and its name. */
    Ruleset rules;

    /**
     * @param in        input interface, or null where there is none (locally generated packets)
     * @param out       output interface, or null before routing
     * @param ctStates  bit set of {@link io.periscope.plan.netfilter.CtState} ordinals that hold
     * @param followAll follow both outcomes of {@code statistic} matches; otherwise pick one by a hash of the flow
     */
    public TableRun(Packet packet, String in, String out, int mark, int connmark, int ctStates, boolean followAll) {
        this.hitRules = new CompiledRule[4];
        this.hitMarks = new int[4];
        start(packet, in, out, mark, connmark, ctStates, followAll);
    }

    /** The run as it is in the middle of a traversal, for the other outcome of a fork. */
    private TableRun(TableRun other) {
        this.packet = other.packet;
        this.src = other.src;
        this.dst = other.dst;
        this.sport = other.sport;
        this.dport = other.dport;
        this.protocol = other.protocol;
        this.in = other.in;
        this.out = other.out;
        this.ctStates = other.ctStates;
        this.followAll = other.followAll;
        this.mark = other.mark;
        this.connmark = other.connmark;
        this.mss = other.mss;
        this.notrack = other.notrack;
        this.clampMss = other.clampMss;
        this.clampSource = other.clampSource;
        this.clampOut = other.clampOut;
        this.clampFrom = other.clampFrom;
        this.hitRules = other.hitRules;
        this.hitMarks = other.hitMarks;
        this.hits = other.hits;
        this.hitsShared = true;
        other.hitsShared = true;
        this.choices = other.choices == null ? null : new ArrayList<>(other.choices);
        this.observer = other.observer;
        this.host = other.host;
        this.rules = other.rules;
        this.keepsChoices = other.keepsChoices;
    }

    /** Reports every chain this run enters to {@code chains}, as chains of {@code host}; null reports nothing. */
    public TableRun observedBy(ChainObserver chains, HostId host) {
        this.observer = chains;
        this.host = host;
        return this;
    }

    void entered(CompiledChain chain) {
        if (observer != null) {
            observer.entered(host, chain.table(), chain.name(), packet);
        }
    }

    /** Makes this a fresh run, forgetting everything the previous one did. Parameters as for the constructor. */
    public TableRun start(Packet packet, String in, String out, int mark, int connmark, int ctStates, boolean followAll) {
        this.packet = packet;
        this.src = packet.src().bits();
        this.dst = packet.dst().bits();
        this.protocol = packet.protocol();
        boolean ports = protocol.hasPorts();
        this.sport = ports ? packet.sport() : -1;
        this.dport = ports ? packet.dport() : -1;
        this.in = in;
        this.out = out;
        this.mark = mark;
        this.connmark = connmark;
        this.ctStates = ctStates;
        this.followAll = followAll;
        this.notrack = false;
        this.mss = 0;
        // The rules past hits are not cleared: they are the ruleset's own, alive as long as it is,
        // and clearing them took a twentieth of a trace.
        this.hits = 0;
        this.choices = null;
        this.verdict = null;
        this.decidedBy = null;
        return this;
    }

    /** The MSS option the packet carries into this traversal (0: none), for TCPMSS targets. */
    public TableRun withMss(int packetMss) {
        return withMss(packetMss, 0);
    }

    /**
     * @param clampTo what {@code TCPMSS --clamp-mss-to-pmtu} sets the MSS to here: the smaller of the
     *                route's MTU and the reverse route's, less 40; 0 where no route is known yet
     */
    public TableRun withMss(int packetMss, int clampTo) {
        this.mss = packetMss;
        this.clampMss = clampTo;
        this.clampSource = null;
        return this;
    }

    /**
     * As {@link #withMss(int, int)}, the clamp asked of {@code clamp} for the packet leaving by
     * {@code out} only when a clamping rule is reached: it takes a routing lookup, and most traversals
     * of a SYN reach no such rule.
     */
    public TableRun withMss(int packetMss, MssClamp clamp, String out, io.periscope.model.net.Ipv4Address source) {
        this.mss = packetMss;
        this.clampMss = UNKNOWN_CLAMP;
        this.clampSource = clamp;
        this.clampOut = out;
        this.clampFrom = source;
        return this;
    }

    /** What {@code TCPMSS --clamp-mss-to-pmtu} sets the MSS to on a host, for a packet leaving by {@code out} from {@code source}. */
    @FunctionalInterface
    public interface MssClamp {
        /** @return 0 where no route is known yet ({@code out} null) */
        int clampedMss(String out, io.periscope.model.net.Ipv4Address source);
    }

    private static final int UNKNOWN_CLAMP = -1;

    /** What the clamp to the path MTU sets the MSS to in this traversal (0: unknown). */
    int clampMss() {
        if (clampMss == UNKNOWN_CLAMP) {
            clampMss = clampSource.clampedMss(clampOut, clampFrom);
        }
        return clampMss;
    }

    TableRun copy() {
        return new TableRun(this);
    }

    void hit(CompiledRule rule, int markAfter) {
        if (hitsShared || hits == hitRules.length) {
            ownHits();
        }
        hitRules[hits] = rule;
        hitMarks[hits] = markAfter;
        hits++;
    }

    /** Hit arrays of this run's own, with room for one more hit than it has. */
    private void ownHits() {
        int length = hits == hitRules.length ? hits * 2 : hitRules.length;
        hitRules = Arrays.copyOf(hitRules, length);
        hitMarks = Arrays.copyOf(hitMarks, length);
        hitsShared = false;
    }

    /**
     * Whether the choices at {@code statistic} rules are kept (see {@link #choices}): not for a walk
     * that keeps no story, where a fork into a hundred endpoints copied each branch's growing list.
     */
    public TableRun keepingChoices(boolean keep) {
        this.keepsChoices = keep;
        return this;
    }

    private boolean keepsChoices = true;

    void choose(CompiledRule rule, boolean matched) {
        if (!keepsChoices) {
            return;
        }
        if (choices == null) {
            choices = new ArrayList<>(1);
        }
        choices.add(rules.choice(rule, matched));
    }

    /**
     * A value in [0, 1) fixed by the flow (the multipath hash of its packet) and the rule (its serial on
     * this host), standing in for the kernel's random draw. {@code chain} is the chain {@code rule} is in.
     */
    double draw(CompiledChain chain, CompiledRule rule) {
        int flowHash = MultipathHash.hash(packet);
        return (Jhash.jhash2(flowHash, rules.serialOf(chain, rule), 0, 0, 0) >>> 1) / (double) (1L << 31);
    }

    public Packet packet() {
        return packet;
    }

    public int mark() {
        return mark;
    }

    public int connmark() {
        return connmark;
    }

    /** The packet's MSS option after the traversal. */
    /** What the clamp to the path MTU sets the MSS to in this traversal (0: unknown), {@link #UNKNOWN_CLAMP} until asked. */
    private int clampMss;
    private MssClamp clampSource;
    private String clampOut;
    private io.periscope.model.net.Ipv4Address clampFrom;

    public int mss() {
        return mss;
    }

    public boolean notrack() {
        return notrack;
    }

    /**
     * How many rules did something worth a trace step without ending the traversal (MARK, CONNMARK,
     * CT --notrack, a TCPMSS that lowered the MSS) or ended it with ACCEPT or DROP; they are {@link #hitRule}(0) and on, in order.
     */
    public int hits() {
        return hits;
    }

    public CompiledRule hitRule(int i) {
        return hitRules[i];
    }

    /** The packet mark (the connection mark for CONNMARK, the MSS for TCPMSS) right after hit {@code i}. */
    public int hitMark(int i) {
        return hitMarks[i];
    }

    /** The choices taken at {@code statistic} rules, in order; empty when they are not kept ({@link #keepingChoices}). */
    public List<String> choices() {
        return choices == null ? NO_CHOICES : choices;
    }

    public Verdict verdict() {
        return verdict;
    }

    /** The rule that dropped the packet or chose its translation; null for an ACCEPT verdict by policy. */
    public CompiledRule decidedBy() {
        return decidedBy;
    }
}
