package io.periscope.simulator.netfilter;

import io.periscope.simulator.hash.Jhash;
import io.periscope.simulator.routing.MultipathHash;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.List;

/**
 * One traversal of a table's built-in chain by one packet: what the matches look at (packet,
 * interfaces, marks, conntrack state) and what the rules did (marks, notrack, rule hits, the verdict).
 * A {@code statistic} match that is followed both ways copies the run, so each outcome is a run.
 */
public final class TableRun {

    final Packet packet;
    final String in;
    final String out;
    final int ctStates;
    final String host;
    final boolean followAll;

    int mark;
    int connmark;
    boolean notrack;
    List<Hit> hits;
    List<String> choices;
    Verdict verdict;
    CompiledRule decidedBy;

    /**
     * @param in        input interface, or null where there is none (locally generated packets)
     * @param out       output interface, or null before routing
     * @param ctStates  bit set of {@link io.periscope.plan.netfilter.CtState} ordinals that hold
     * @param host      the host's name, for the choice descriptions
     * @param followAll follow both outcomes of {@code statistic} matches; otherwise pick one by a hash of the flow
     */
    public TableRun(Packet packet, String in, String out, int mark, int connmark, int ctStates, String host,
                    boolean followAll) {
        this.packet = packet;
        this.in = in;
        this.out = out;
        this.mark = mark;
        this.connmark = connmark;
        this.ctStates = ctStates;
        this.host = host;
        this.followAll = followAll;
    }

    private TableRun(TableRun other) {
        this(other.packet, other.in, other.out, other.mark, other.connmark, other.ctStates, other.host, other.followAll);
        this.notrack = other.notrack;
        this.hits = other.hits == null ? null : new ArrayList<>(other.hits);
        this.choices = other.choices == null ? null : new ArrayList<>(other.choices);
    }

    TableRun copy() {
        return new TableRun(this);
    }

    void hit(CompiledRule rule, int markAfter) {
        if (hits == null) {
            hits = new ArrayList<>(2);
        }
        hits.add(new Hit(rule, markAfter));
    }

    void choose(CompiledRule rule, boolean matched) {
        if (choices == null) {
            choices = new ArrayList<>(1);
        }
        choices.add(host + " " + rule.ref().table() + "/" + rule.ref().chain() + ": statistic "
                + String.format(java.util.Locale.ROOT, "%.5f", rule.probability()) + (matched ? " matched" : " not matched"));
    }

    /**
     * A value in [0, 1) fixed by the flow (the multipath hash of its packet) and the rule, standing in
     * for the kernel's random draw.
     */
    double draw(CompiledRule rule) {
        int flowHash = MultipathHash.hash(packet);
        return (Jhash.jhash2(flowHash, rule.serial(), 0, 0, 0) >>> 1) / (double) (1L << 31);
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

    public boolean notrack() {
        return notrack;
    }

    public List<Hit> hits() {
        return hits == null ? List.of() : hits;
    }

    public List<String> choices() {
        return choices == null ? List.of() : choices;
    }

    public Verdict verdict() {
        return verdict;
    }

    /** The rule that dropped the packet or chose its translation; null for an ACCEPT verdict by policy. */
    public CompiledRule decidedBy() {
        return decidedBy;
    }
}
