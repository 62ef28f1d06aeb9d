package io.periscope.plan.netfilter;

import io.periscope.model.topology.Protocol;

import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Renders rules exactly as {@code iptables-save} prints them (nf_tables backend), so that a rule
 * Periscope wrote and the same rule read back from the kernel have the same text. Traces quote
 * rules in this form too, which is the form the seed documents use.
 */
public final class IptablesSyntax {

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
        for (Match match : rule.matches()) {
            // iptables-save puts the comment match after the address, interface and protocol
            // options and before the other -m matches, because that is where kube-proxy adds it.
            if (!commentWritten && rule.comment().isPresent() && isModuleMatch(match)) {
                append(text, "-m comment --comment " + quote(rule.comment().get()));
                commentWritten = true;
            }
            append(text, match(match, protocol));
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

    private static boolean isModuleMatch(Match match) {
        return !(match instanceof Match.Source || match instanceof Match.Destination || match instanceof Match.InInterface
                || match instanceof Match.OutInterface || match instanceof Match.ProtocolIs);
    }

    private static void append(StringBuilder text, String part) {
        if (!text.isEmpty()) {
            text.append(' ');
        }
        text.append(part);
    }

    static String match(Match match, Protocol protocol) {
        return switch (match) {
            case Match.Source s -> not(s.negated()) + "-s " + s.prefix();
            case Match.Destination d -> not(d.negated()) + "-d " + d.prefix();
            case Match.InInterface i -> not(i.negated()) + "-i " + i.name();
            case Match.OutInterface o -> not(o.negated()) + "-o " + o.name();
            case Match.ProtocolIs p -> "-p " + p.protocol().lowerName();
            case Match.DestinationPort p -> "-m " + portModule(protocol) + " --dport " + p.port();
            case Match.SourcePort p -> "-m " + portModule(protocol) + " --sport " + p.port();
            case Match.TcpSyn t -> "-m tcp --tcp-flags SYN,RST SYN";
            case Match.SetMatch s -> "-m set " + not(s.negated()) + "--match-set " + s.setName() + (s.source() ? " src" : " dst");
            case Match.MarkIs m -> "-m mark " + not(m.negated()) + "--mark " + hex(m.value()) + "/" + hex(m.mask());
            case Match.ConnMarkIs m -> "-m connmark --mark " + hex(m.value()) + "/" + hex(m.mask());
            case Match.ConnState c -> "-m conntrack " + not(c.negated()) + "--ctstate "
                    + c.states().stream().sorted().map(Enum::name).collect(Collectors.joining(","));
            case Match.DestinationIsLocal l -> "-m addrtype " + not(l.negated()) + "--dst-type LOCAL";
            case Match.RandomProbability r -> "-m statistic --mode random --probability "
                    + String.format(Locale.ROOT, "%.11f", r.probability());
        };
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
            case Target.NoTrack n -> "-j CT --notrack";
        };
    }

    private static String portModule(Protocol protocol) {
        if (protocol == null || !protocol.hasPorts()) {
            throw new IllegalArgumentException("a port match needs -p tcp or -p udp before it");
        }
        return protocol.lowerName();
    }

    private static String not(boolean negated) {
        return negated ? "! " : "";
    }

    /** Marks as iptables-save prints them: lower-case hex with 0x. */
    public static String hex(int value) {
        return "0x" + Integer.toHexString(value);
    }

    private static String quote(String comment) {
        return comment.matches("[A-Za-z0-9_./:-]+") ? comment : "\"" + comment.replace("\"", "\\\"") + "\"";
    }
}
