package io.periscope.dataplane.iptables;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads one rule of {@code iptables-save} output back into a {@link Rule}. A rule is accepted only
 * if {@link IptablesSyntax} prints the result back to exactly the same text: then writing the record
 * recreates the very rule that was read, and anything the model cannot say (other modules, port
 * ranges, a second comment, a goto, ...) is left as foreign text instead of being misread.
 */
public final class IptablesRuleParser {

    private IptablesRuleParser() {
    }

    /**
     * @param text       the rule without {@code -A CHAIN}
     * @param userChains the table's user-defined chains: {@code -j NAME} is a jump only to one of them
     */
    public static Optional<Rule> parse(String text, Set<String> userChains) {
        try {
            Rule rule = new Reading(IptablesTokens.split(text), userChains).rule();
            return IptablesSyntax.rule(rule).equals(text) ? Optional.of(rule) : Optional.empty();
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** Not part of the model: the rule stays foreign. */
    private static final class Unsupported extends IllegalArgumentException {
        Unsupported(String what) {
            super(what);
        }
    }

    private static final class Reading {
        private final List<String> tokens;
        private final Set<String> userChains;
        private int next;
        private final List<Match> matches = new ArrayList<>();
        private Optional<String> comment = Optional.empty();
        private Target target;

        Reading(List<String> tokens, Set<String> userChains) {
            this.tokens = tokens;
            this.userChains = userChains;
        }

        Rule rule() {
            while (next < tokens.size()) {
                boolean negated = accept("!");
                String option = take();
                switch (option) {
                    case "-s" -> matches.add(new Match.Source(Ipv4Prefix.parse(take()), negated));
                    case "-d" -> matches.add(new Match.Destination(Ipv4Prefix.parse(take()), negated));
                    case "-i" -> matches.add(new Match.InInterface(take(), negated));
                    case "-o" -> matches.add(new Match.OutInterface(take(), negated));
                    case "-p" -> matches.add(new Match.ProtocolIs(positive(negated, Protocol.parse(take())
                            .orElseThrow(() -> new Unsupported("protocol")))));
                    case "-m" -> module(positive(negated, take()));
                    case "-j" -> target(positive(negated, take()));
                    default -> throw new Unsupported(option);
                }
            }
            if (target == null) {
                throw new Unsupported("a rule without target");
            }
            return new Rule(matches, target, comment);
        }

        private void module(String name) {
            switch (name) {
                case "tcp", "udp" -> {
                    if (!nextIsOption()) {
                        // Bare, as upstream's packet filter writes it after -p (ToRuleSpec).
                        matches.add(new Match.ProtocolModule());
                    }
                    while (nextIsOption()) {
                        String option = positive(accept("!"), take());
                        switch (option) {
                            case "--sport" -> matches.add(new Match.SourcePort(Integer.parseInt(take())));
                            case "--dport" -> matches.add(new Match.DestinationPort(Integer.parseInt(take())));
                            case "--tcp-flags" -> {
                                if (!take().equals("SYN,RST") || !take().equals("SYN")) {
                                    throw new Unsupported("tcp flags");
                                }
                                matches.add(new Match.TcpSyn());
                            }
                            default -> throw new Unsupported(option);
                        }
                    }
                }
                case "comment" -> {
                    expect("--comment");
                    if (comment.isPresent()) {
                        throw new Unsupported("two comments");
                    }
                    comment = Optional.of(take());
                }
                case "set" -> {
                    boolean negated = accept("!");
                    expect("--match-set");
                    String set = take();
                    String direction = take();
                    if (!direction.equals("src") && !direction.equals("dst")) {
                        throw new Unsupported("set direction " + direction);
                    }
                    matches.add(new Match.SetMatch(set, direction.equals("src"), negated));
                }
                case "mark" -> {
                    boolean negated = accept("!");
                    expect("--mark");
                    int[] mark = markAndMask(take());
                    matches.add(new Match.MarkIs(mark[0], mark[1], negated));
                }
                case "connmark" -> {
                    expect("--mark");
                    int[] mark = markAndMask(take());
                    matches.add(new Match.ConnMarkIs(mark[0], mark[1]));
                }
                case "conntrack" -> {
                    boolean negated = accept("!");
                    expect("--ctstate");
                    Set<CtState> states = EnumSet.noneOf(CtState.class);
                    for (String state : take().split(",")) {
                        states.add(CtState.valueOf(state));
                    }
                    matches.add(new Match.ConnState(states, negated));
                }
                case "addrtype" -> {
                    boolean negated = accept("!");
                    expect("--dst-type");
                    expect("LOCAL");
                    matches.add(new Match.DestinationIsLocal(negated));
                }
                case "statistic" -> {
                    expect("--mode");
                    expect("random");
                    expect("--probability");
                    matches.add(new Match.RandomProbability(Double.parseDouble(take())));
                }
                default -> throw new Unsupported("module " + name);
            }
        }

        private void target(String name) {
            if (target != null) {
                throw new Unsupported("two targets");
            }
            target = switch (name) {
                case "ACCEPT" -> new Target.Accept();
                case "DROP" -> new Target.Drop();
                case "RETURN" -> new Target.Return();
                case "MASQUERADE" -> new Target.Masquerade();
                case "SNAT" -> {
                    expect("--to-source");
                    yield new Target.Snat(Ipv4Range.parse(take()));
                }
                case "DNAT" -> {
                    expect("--to-destination");
                    String destination = take();
                    int colon = destination.indexOf(':');
                    yield colon < 0
                            ? new Target.Dnat(Ipv4Address.parse(destination), OptionalInt.empty())
                            : new Target.Dnat(Ipv4Address.parse(destination.substring(0, colon)),
                                    OptionalInt.of(Integer.parseInt(destination.substring(colon + 1))));
                }
                case "MARK" -> {
                    expect("--set-xmark");
                    int[] mark = markAndMask(take());
                    yield new Target.SetMark(mark[0], mark[1]);
                }
                case "CONNMARK" -> {
                    expect("--set-xmark");
                    int[] mark = markAndMask(take());
                    yield new Target.SetConnMark(mark[0], mark[1]);
                }
                case "TCPMSS" -> {
                    if (accept("--set-mss")) {
                        yield new Target.SetMss(Integer.parseInt(take()));
                    }
                    expect("--clamp-mss-to-pmtu");
                    yield new Target.ClampMssToPmtu();
                }
                case "CT" -> {
                    expect("--notrack");
                    yield new Target.NoTrack();
                }
                default -> {
                    if (!userChains.contains(name)) {
                        throw new Unsupported("target " + name);
                    }
                    yield new Target.Jump(name);
                }
            };
            if (nextIsOption()) {
                throw new Unsupported("target option " + tokens.get(next));
            }
        }

        /** {@code 0xc0000/0xc0000}, or {@code 0x1} for a mask of all ones. */
        private static int[] markAndMask(String text) {
            int slash = text.indexOf('/');
            return slash < 0
                    ? new int[] {hex(text), 0xffffffff}
                    : new int[] {hex(text.substring(0, slash)), hex(text.substring(slash + 1))};
        }

        private static int hex(String text) {
            if (!text.startsWith("0x")) {
                throw new Unsupported("mark " + text);
            }
            return Integer.parseUnsignedInt(text.substring(2), 16);
        }

        private boolean nextIsOption() {
            if (next >= tokens.size()) {
                return false;
            }
            String token = tokens.get(next);
            return token.startsWith("--") || token.equals("!") && next + 1 < tokens.size() && tokens.get(next + 1).startsWith("--");
        }

        private static <T> T positive(boolean negated, T value) {
            if (negated) {
                throw new Unsupported("negated " + value);
            }
            return value;
        }

        private boolean accept(String token) {
            if (next < tokens.size() && tokens.get(next).equals(token)) {
                next++;
                return true;
            }
            return false;
        }

        private void expect(String token) {
            if (!accept(token)) {
                throw new Unsupported("expected " + token);
            }
        }

        private String take() {
            return tokens.get(next++);
        }
    }
}
