package io.periscope.simulator.netfilter;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.RuleRef;

/**
 * A rule ready to run. The deterministic matches are tested first; the {@code statistic} ones are
 * folded into one probability that the walk forks on only when everything else matched, so a rule
 * that cannot match anyway never doubles the paths.
 *
 * <p>Every packet tests many rules, so the common matches live in plain fields (an absent address
 * match is mask 0, which every address passes) instead of a list of predicates: a call through an
 * interface with a dozen implementations cannot be inlined, and it was most of a trace's time.
 * Only rare matches (ipsets, {@code addrtype}, a second match of one kind) stay predicates.
 */
public final class CompiledRule {

    /** A compiled match: true when the packet satisfies it. */
    @FunctionalInterface
    interface Condition {
        boolean test(TableRun run);
    }

    /** The fields a rule tests; built match by match while compiling. */
    static final class Matches {
        int srcMask;
        int srcValue;
        boolean srcNegated;
        boolean hasSrc;
        int dstMask;
        int dstValue;
        boolean dstNegated;
        boolean hasDst;
        Protocol protocol;
        int dport = -1;
        int sport = -1;
        boolean tcpSyn;
        InterfaceName in;
        boolean inNegated;
        InterfaceName out;
        boolean outNegated;
        int markMask;
        int markValue;
        boolean markNegated;
        boolean hasMark;
        int connmarkMask;
        int connmarkValue;
        boolean hasConnmark;
        int ctStates;
        boolean ctNegated;
        boolean hasCtState;
    }

    // What the target does, as a number: the traversal switches on it for every matching rule.
    static final int ACCEPT = 0;
    static final int DROP = 1;
    static final int RETURN = 2;
    static final int JUMP = 3;
    static final int NAT = 4;
    static final int SET_MARK = 5;
    static final int SET_CONNMARK = 6;
    static final int NO_TRACK = 7;
    static final int NOTHING = 8;
    static final int SET_MSS = 9;
    static final int CLAMP_MSS = 10;

    private final Rule rule;
    private final RuleRef ref;
    private final java.util.Optional<RuleRef> optionalRef;
    /** No deterministic match at all (a plain {@code -j CHAIN}, say): nothing to test. */
    final boolean unconditional;
    final int kind;
    /** The value and mask of a MARK or CONNMARK target. */
    final int markValueSet;
    final int markMaskSet;
    /** The value of a TCPMSS --set-mss target. */
    final int mssSet;
    private final int srcMask;
    private final int srcValue;
    private final boolean srcNegated;
    private final int dstMask;
    private final int dstValue;
    private final boolean dstNegated;
    private final Protocol protocol;
    private final int dport;
    private final int sport;
    private final boolean tcpSyn;
    private final InterfaceName in;
    private final boolean inNegated;
    private final InterfaceName out;
    private final boolean outNegated;
    private final int markMask;
    private final int markValue;
    private final boolean markNegated;
    private final int connmarkMask;
    private final int connmarkValue;
    private final boolean hasCtState;
    private final int ctStates;
    private final boolean ctNegated;
    private final Condition[] others;
    private final double probability;
    private final boolean random;
    /**
     * What a {@code statistic} draw reads besides the flow: the rule's place in its host's tables, or in
     * a chain shared between hosts its place in that chain (the host adds where the chain starts).
     */
    private final int serial;
    /** What a path's choice at a {@code statistic} rule says, taken and not taken. */
    record ChoiceTexts(String chosen, String notChosen) {

        String of(boolean matched) {
            return matched ? chosen : notChosen;
        }
    }

    CompiledChain jump;

    CompiledRule(Rule rule, RuleRef ref, Matches m, Condition[] others, double probability, boolean random, int serial) {
        this.rule = rule;
        this.ref = ref;
        this.optionalRef = java.util.Optional.of(ref);
        this.unconditional = !m.hasSrc && !m.hasDst && m.protocol == null && m.dport < 0 && m.sport < 0 && !m.tcpSyn
                && m.in == null && m.out == null && !m.hasMark && !m.hasConnmark && !m.hasCtState && others.length == 0;
        this.kind = switch (rule.target()) {
            case Target.Accept a -> ACCEPT;
            case Target.Drop d -> DROP;
            case Target.Return r -> RETURN;
            case Target.Jump j -> JUMP;
            case Target.Snat n -> NAT;
            case Target.Dnat n -> NAT;
            case Target.Masquerade n -> NAT;
            case Target.SetMark k -> SET_MARK;
            case Target.SetConnMark k -> SET_CONNMARK;
            case Target.NoTrack n -> NO_TRACK;
            // The simulator knows no path MTU (an XFRM bundle's, a PMTU exception), so it leaves the
            // path-MTU clamp out rather than guess; a forced value it applies.
            case Target.ClampMssToPmtu c -> CLAMP_MSS;
            case Target.SetMss s -> SET_MSS;
        };
        this.mssSet = rule.target() instanceof Target.SetMss s ? s.mss() : 0;
        this.markValueSet = switch (rule.target()) {
            case Target.SetMark k -> k.value();
            case Target.SetConnMark k -> k.value();
            default -> 0;
        };
        this.markMaskSet = switch (rule.target()) {
            case Target.SetMark k -> k.mask();
            case Target.SetConnMark k -> k.mask();
            default -> 0;
        };
        this.srcMask = m.srcMask;
        this.srcValue = m.srcValue;
        this.srcNegated = m.srcNegated;
        this.dstMask = m.dstMask;
        this.dstValue = m.dstValue;
        this.dstNegated = m.dstNegated;
        this.protocol = m.protocol;
        this.dport = m.dport;
        this.sport = m.sport;
        this.tcpSyn = m.tcpSyn;
        this.in = m.in;
        this.inNegated = m.inNegated;
        this.out = m.out;
        this.outNegated = m.outNegated;
        this.markMask = m.markMask;
        this.markValue = m.markValue;
        this.markNegated = m.markNegated;
        this.connmarkMask = m.connmarkMask;
        this.connmarkValue = m.connmarkValue;
        this.hasCtState = m.hasCtState;
        this.ctStates = m.ctStates;
        this.ctNegated = m.ctNegated;
        this.others = others;
        this.probability = probability;
        this.random = random;
        this.serial = serial;
    }

    public Rule rule() {
        return rule;
    }

    public Target target() {
        return rule.target();
    }

    /** The table, chain and {@code iptables-save} text of the rule, for trace steps. */
    public RuleRef ref() {
        return ref;
    }

    /** {@link #ref} as the optional that NAT steps carry, made once. */
    public java.util.Optional<RuleRef> optionalRef() {
        return optionalRef;
    }

    boolean matchesDeterministic(TableRun run) {
        if (((run.src & srcMask) == srcValue) == srcNegated) {
            return false;
        }
        if (((run.dst & dstMask) == dstValue) == dstNegated) {
            return false;
        }
        if (protocol != null && run.protocol != protocol) {
            return false;
        }
        // A run's ports are -1 for a protocol without them, so a port match fails there.
        if (dport >= 0 && run.dport != dport) {
            return false;
        }
        if (sport >= 0 && run.sport != sport) {
            return false;
        }
        // The simulator follows a connection's first packet each way: for TCP the SYN and the
        // SYN-ACK, both of which have SYN set and RST clear.
        if (tcpSyn && run.protocol != Protocol.TCP) {
            return false;
        }
        if (in != null && in.matches(run.in) == inNegated) {
            return false;
        }
        if (out != null && out.matches(run.out) == outNegated) {
            return false;
        }
        if (((run.mark & markMask) == markValue) == markNegated) {
            return false;
        }
        if ((run.connmark & connmarkMask) != connmarkValue) {
            return false;
        }
        if (hasCtState && ((run.ctStates & ctStates) != 0) == ctNegated) {
            return false;
        }
        for (Condition c : others) {
            if (!c.test(run)) {
                return false;
            }
        }
        return true;
    }

    Protocol protocol() {
        return protocol;
    }

    boolean tcpSyn() {
        return tcpSyn;
    }

    int dport() {
        return dport;
    }

    /** The destination match's mask and network; mask 0 without one. */
    int destinationMask() {
        return dstMask;
    }

    int destinationNetwork() {
        return dstValue;
    }

    boolean destinationNegated() {
        return dstNegated;
    }

    /** The input interface match's name ({@code +} for a prefix), or null without one. */
    String input() {
        return in == null ? null : in.name();
    }

    boolean inputNegated() {
        return inNegated;
    }

    boolean random() {
        return random;
    }

    double probability() {
        return probability;
    }

    int serial() {
        return serial;
    }

    /** The texts of a path's choice at this {@code statistic} rule on host {@code hostName}. */
    ChoiceTexts choiceTexts(String hostName) {
        String choice = hostName + " " + ref.table() + "/" + ref.chain() + ": statistic "
                + String.format(java.util.Locale.ROOT, "%.5f", probability);
        return new ChoiceTexts(choice + " matched", choice + " not matched");
    }

    /** iptables interface names: a trailing {@code +} matches every name with that prefix. */
    record InterfaceName(String name, String prefix) {

        static InterfaceName of(String name) {
            return new InterfaceName(name, name.endsWith("+") ? name.substring(0, name.length() - 1) : null);
        }

        boolean matches(String actual) {
            String have = actual == null ? "" : actual;
            return prefix != null ? have.startsWith(prefix) : have.equals(name);
        }
    }
}
