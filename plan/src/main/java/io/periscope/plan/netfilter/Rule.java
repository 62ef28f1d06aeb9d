package io.periscope.plan.netfilter;

import io.periscope.model.net.Ipv4Prefix;

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
        // Planners build millions of rules for a large cluster set, nearly all already in this
        // order: one pass over a small array instead of a list per class and a stream per option,
        // and the given list itself when nothing moved (List.copyOf keeps an immutable list as is).
        int size = given.size();
        if (size <= 1) {
            // Nothing to reorder: one match stays as it is, unless it is a plain -s/-d 0.0.0.0/0.
            return size == 1 && matchesEverything(given.getFirst()) ? List.of() : List.copyOf(given);
        }
        Match[] ordered = new Match[size];
        int count = 0;
        for (int rank = 0; rank < BASIC_MATCHES; rank++) {
            for (int i = 0; i < size; i++) {
                Match match = given.get(i);
                if (basicRank(match) == rank && !matchesEverything(match)) {
                    ordered[count++] = match;
                }
            }
        }
        boolean protocolModuleWritten = false;
        for (int i = 0; i < size; i++) {
            Match match = given.get(i);
            if (basicRank(match) >= 0) {
                continue;
            }
            if (isProtocolModuleOption(match)) {
                if (!protocolModuleWritten) {
                    boolean anyOption = false;
                    for (int rank = 0; rank < PROTOCOL_MODULE_OPTIONS; rank++) {
                        for (int j = 0; j < size; j++) {
                            if (protocolModuleRank(given.get(j)) == rank) {
                                ordered[count++] = given.get(j);
                                anyOption = true;
                            }
                        }
                    }
                    if (!anyOption) {
                        // Only the bare module was given (this match): kept once.
                        ordered[count++] = match;
                    }
                    protocolModuleWritten = true;
                }
                continue;
            }
            ordered[count++] = match;
        }
        if (count == size) {
            boolean unchanged = true;
            for (int i = 0; i < size && unchanged; i++) {
                unchanged = ordered[i] == given.get(i);
            }
            if (unchanged) {
                return List.copyOf(given);
            }
        }
        return count == size ? List.of(ordered) : List.of(java.util.Arrays.copyOf(ordered, count));
    }

    private static final int BASIC_MATCHES = 5;
    private static final int PROTOCOL_MODULE_OPTIONS = 3;

    /** {@code -s -d -i -o -p} as 0 to 4, the order iptables-save prints them in; -1 for a module's match. */
    private static int basicRank(Match match) {
        if (match instanceof Match.Source) {
            return 0;
        }
        if (match instanceof Match.Destination) {
            return 1;
        }
        if (match instanceof Match.InInterface) {
            return 2;
        }
        if (match instanceof Match.OutInterface) {
            return 3;
        }
        return match instanceof Match.ProtocolIs ? 4 : -1;
    }

    /** {@code --sport --dport --tcp-flags} as 0 to 2 within their shared module; -1 for anything else. */
    private static int protocolModuleRank(Match match) {
        if (match instanceof Match.SourcePort) {
            return 0;
        }
        if (match instanceof Match.DestinationPort) {
            return 1;
        }
        return match instanceof Match.TcpSyn ? 2 : -1;
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
