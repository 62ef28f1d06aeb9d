package io.periscope.plan.netfilter;

import io.periscope.model.net.Ipv4Prefix;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One iptables rule: every match must hold, then the target applies. The optional comment is
 * rendered as {@code -m comment --comment} and carries no meaning. kube-proxy writes comments;
 * Submariner's packet filter has no way to (its rules have none), so planners give them only where
 * the real component does.
 *
 * <p>The matches are kept in the order {@code iptables-save} prints them (see {@link #canonicalOrder}),
 * so that a rule Periscope writes and the same rule read back from the kernel are equal records.
 */
public record Rule(List<Match> matches, Target target, Optional<String> comment) {

    public Rule {
        matches = canonicalOrder(matches);
    }

    public static Rule of(Target target, Match... matches) {
        return new Rule(List.of(matches), target, Optional.empty());
    }

    public Rule withComment(String text) {
        return new Rule(matches, target, Optional.of(text));
    }

    /**
     * The order in which the kernel gives matches back (nf_tables backend): addresses, interfaces
     * and protocol first, always as {@code -s -d -i -o -p}; then the module matches in the order they
     * were given, except that the port and TCP-flag options share one {@code -m tcp}/{@code -m udp}
     * module placed where the first of them was, as {@code --sport --dport --tcp-flags}; a bare
     * {@code -m tcp}/{@code -m udp} ({@link Match.ProtocolModule}) is that module with no option, so
     * it is kept once where no option is and dropped where one is. A plain {@code -s 0.0.0.0/0}
     * matches everything and the kernel drops it, so it is dropped here too.
     * All matches must hold, so reordering them changes nothing a packet sees.
     */
    static List<Match> canonicalOrder(List<Match> given) {
        List<Match> ordered = new ArrayList<>(given.size());
        for (Class<?> basic : List.of(Match.Source.class, Match.Destination.class, Match.InInterface.class,
                Match.OutInterface.class, Match.ProtocolIs.class)) {
            for (Match match : given) {
                if (basic.isInstance(match) && !matchesEverything(match)) {
                    ordered.add(match);
                }
            }
        }
        boolean protocolModuleWritten = false;
        for (Match match : given) {
            if (isBasic(match)) {
                continue;
            }
            if (isProtocolModuleOption(match)) {
                if (!protocolModuleWritten) {
                    for (Class<?> option : List.of(Match.SourcePort.class, Match.DestinationPort.class, Match.TcpSyn.class)) {
                        given.stream().filter(option::isInstance).forEach(ordered::add);
                    }
                    if (given.stream().noneMatch(Rule::isProtocolModuleParameter)) {
                        ordered.add(new Match.ProtocolModule());
                    }
                    protocolModuleWritten = true;
                }
                continue;
            }
            ordered.add(match);
        }
        return List.copyOf(ordered);
    }

    static boolean isBasic(Match match) {
        return match instanceof Match.Source || match instanceof Match.Destination || match instanceof Match.InInterface
                || match instanceof Match.OutInterface || match instanceof Match.ProtocolIs;
    }

    /** A match printed inside the one {@code -m tcp}/{@code -m udp} module: an option, or the bare module. */
    static boolean isProtocolModuleOption(Match match) {
        return isProtocolModuleParameter(match) || match instanceof Match.ProtocolModule;
    }

    private static boolean isProtocolModuleParameter(Match match) {
        return match instanceof Match.SourcePort || match instanceof Match.DestinationPort || match instanceof Match.TcpSyn;
    }

    private static boolean matchesEverything(Match match) {
        return match instanceof Match.Source s && !s.negated() && s.prefix().equals(Ipv4Prefix.DEFAULT)
                || match instanceof Match.Destination d && !d.negated() && d.prefix().equals(Ipv4Prefix.DEFAULT);
    }
}
