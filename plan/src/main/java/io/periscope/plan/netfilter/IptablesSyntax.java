package io.periscope.plan.netfilter;

import io.periscope.model.topology.Protocol;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Renders rules exactly as {@code iptables-save} prints them (iptables 1.8, nf_tables backend), so
 * that a rule Periscope wrote and the same rule read back from the kernel have the same text. Traces
 * quote rules in this form too, which is the form the seed documents use. The forms were checked
 * against the real {@code iptables-save}; the agents' round-trip tests keep them honest.
 */
public final class IptablesSyntax {

    /** The order in which the conntrack match prints states, whatever order they were given in. */
    private static final List<CtState> CTSTATE_PRINT_ORDER = List.of(CtState.INVALID, CtState.NEW, CtState.RELATED,
            CtState.ESTABLISHED, CtState.UNTRACKED, CtState.SNAT, CtState.DNAT);

    private static final int ALL_BITS = 0xffffffff;

    private IptablesSyntax() {
    }

    /** The rule without {@code -A CHAIN}: {@code -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT ...}. */
    public static String rule(Rule rule) {
        StringBuilder text = new StringBuilder();
        Protocol protocol = null;
        for (Match match : rule.matches()) {
            if (match instanceof Match.ProtocolIs p) {
                protocol = p.protocol();
            }
        }
        boolean commentWritten = false;
        boolean protocolModuleWritten = false;
        // Rule keeps its matches in iptables-save order: basic options, then modules.
        for (Match match : rule.matches()) {
            // The kernel keeps the comment where it was given; Periscope gives it after the basic
            // options and before the first module, where kube-proxy puts it.
            if (!commentWritten && rule.comment().isPresent() && !Rule.isBasic(match)) {
                append(text, "-m comment --comment " + quote(rule.comment().get()));
                commentWritten = true;
            }
            if (Rule.isProtocolModuleOption(match)) {
                // Port and flag options are printed as one -m tcp/-m udp module.
                if (!protocolModuleWritten) {
                    append(text, "-m " + protocolModule(match, protocol));
                    protocolModuleWritten = true;
                }
                if (!(match instanceof Match.ProtocolModule)) {
                    append(text, protocolModuleOption(match));
                }
                continue;
            }
            append(text, match(match));
        }
        if (!commentWritten && rule.comment().isPresent()) {
            append(text, "-m comment --comment " + quote(rule.comment().get()));
        }
        append(text, target(rule.target()));
        return text.toString();
    }

    /** The rule as a line of {@code iptables-save} output. */
    public static String appendLine(String chain, Rule rule) {
        return "-A " + chain + " " + rule(rule);
    }

    private static void append(StringBuilder text, String part) {
        if (!text.isEmpty()) {
            text.append(' ');
        }
        text.append(part);
    }

    static String match(Match match) {
        return switch (match) {
            case Match.Source s -> not(s.negated()) + "-s " + s.prefix();
            case Match.Destination d -> not(d.negated()) + "-d " + d.prefix();
            case Match.InInterface i -> not(i.negated()) + "-i " + i.name();
            case Match.OutInterface o -> not(o.negated()) + "-o " + o.name();
            case Match.ProtocolIs p -> "-p " + p.protocol().lowerName();
            case Match.ProtocolModule m -> protocolModuleOption(m);
            case Match.DestinationPort p -> protocolModuleOption(p);
            case Match.SourcePort p -> protocolModuleOption(p);
            case Match.TcpSyn t -> protocolModuleOption(t);
            case Match.SetMatch s -> "-m set " + not(s.negated()) + "--match-set " + s.setName() + (s.source() ? " src" : " dst");
            case Match.MarkIs m -> "-m mark " + not(m.negated()) + "--mark " + markAndMask(m.value(), m.mask());
            case Match.ConnMarkIs m -> "-m connmark --mark " + markAndMask(m.value(), m.mask());
            case Match.ConnState c -> "-m conntrack " + not(c.negated()) + "--ctstate "
                    + CTSTATE_PRINT_ORDER.stream().filter(c.states()::contains).map(Enum::name).collect(Collectors.joining(","));
            case Match.DestinationIsLocal l -> "-m addrtype " + not(l.negated()) + "--dst-type LOCAL";
            // RandomProbability already holds the kernel's 31-bit fraction; 11 decimals is how it prints.
            case Match.RandomProbability r -> "-m statistic --mode random --probability "
                    + String.format(Locale.ROOT, "%.11f", r.probability());
        };
    }

    private static String protocolModuleOption(Match match) {
        return switch (match) {
            case Match.SourcePort p -> "--sport " + p.port();
            case Match.DestinationPort p -> "--dport " + p.port();
            case Match.TcpSyn t -> "--tcp-flags SYN,RST SYN";
            // The bare module has no option: the -m tcp/-m udp written for the group is all of it.
            case Match.ProtocolModule m -> "";
            default -> throw new IllegalArgumentException(match + " is not a tcp/udp module option");
        };
    }

    private static String protocolModule(Match first, Protocol protocol) {
        if (first instanceof Match.TcpSyn) {
            if (protocol != Protocol.TCP) {
                throw new IllegalArgumentException("--tcp-flags needs -p tcp");
            }
            return "tcp";
        }
        if (protocol == null || !protocol.hasPorts()) {
            throw new IllegalArgumentException(first instanceof Match.ProtocolModule
                    ? "a bare -m tcp/-m udp needs -p tcp or -p udp" : "a port match needs -p tcp or -p udp");
        }
        return protocol.lowerName();
    }

    static String target(Target target) {
        return switch (target) {
            case Target.Accept a -> "-j ACCEPT";
            case Target.Drop d -> "-j DROP";
            case Target.Return r -> "-j RETURN";
            case Target.Jump j -> "-j " + j.chain();
            case Target.Snat s -> "-j SNAT --to-source " + s.toSource();
            case Target.Dnat d -> "-j DNAT --to-destination " + d.toAddress()
                    + (d.toPort().isPresent() ? ":" + d.toPort().getAsInt() : "");
            case Target.Masquerade m -> "-j MASQUERADE";
            case Target.SetMark m -> "-j MARK --set-xmark " + hex(m.value()) + "/" + hex(m.mask());
            case Target.SetConnMark m -> "-j CONNMARK --set-xmark " + hex(m.value()) + "/" + hex(m.mask());
            case Target.ClampMssToPmtu c -> "-j TCPMSS --clamp-mss-to-pmtu";
            case Target.SetMss m -> "-j TCPMSS --set-mss " + m.mss();
            case Target.NoTrack n -> "-j CT --notrack";
        };
    }

    /** The mark and connmark matches leave out a mask of all ones. */
    private static String markAndMask(int value, int mask) {
        return mask == ALL_BITS ? hex(value) : hex(value) + "/" + hex(mask);
    }

    private static String not(boolean negated) {
        return negated ? "! " : "";
    }

    /** Marks as iptables-save prints them: lower-case hex with 0x. */
    public static String hex(int value) {
        return "0x" + Integer.toHexString(value);
    }

    /**
     * Comments as iptables-save quotes them: bare when made only of letters, digits, '_' and '-';
     * otherwise in double quotes with {@code "}, {@code '} and {@code \} escaped by a backslash.
     */
    public static String quote(String comment) {
        if (comment.matches("[A-Za-z0-9_-]+")) {
            return comment;
        }
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : comment.toCharArray()) {
            if (c == '"' || c == '\'' || c == '\\') {
                quoted.append('\\');
            }
            quoted.append(c);
        }
        return quoted.append('"').toString();
    }
}
