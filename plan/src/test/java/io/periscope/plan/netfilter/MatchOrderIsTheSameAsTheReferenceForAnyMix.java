package io.periscope.plan.netfilter;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Rule#canonicalOrder} is written for speed (the planner builds millions of rules); this
 * checks it against the rule as the documentation states it, written plainly, on random mixes of
 * every kind of match, repeated ones and catch-all addresses included.
 */
class MatchOrderIsTheSameAsTheReferenceForAnyMix {

    @Test
    void randomMixesGetTheReferenceOrder() {
        Random random = new Random(31);
        for (int n = 0; n < 20_000; n++) {
            List<Match> given = new ArrayList<>();
            int size = random.nextInt(8);
            for (int i = 0; i < size; i++) {
                given.add(anyMatch(random));
            }
            assertThat(Rule.canonicalOrder(given)).as("%s", given).containsExactlyElementsOf(reference(given));
        }
    }

    @Test
    void aListAlreadyInOrderIsKept() {
        List<Match> given = List.of(new Match.Source(Ipv4Prefix.parse("10.0.0.0/16"), false), new Match.ProtocolIs(Protocol.TCP),
                new Match.DestinationPort(80));
        assertThat(Rule.canonicalOrder(given)).isSameAs(given);
    }

    private static Match anyMatch(Random random) {
        Ipv4Prefix prefix = random.nextInt(4) == 0 ? Ipv4Prefix.DEFAULT : Ipv4Prefix.parse("10." + random.nextInt(3) + ".0.0/16");
        return switch (random.nextInt(12)) {
            case 0 -> new Match.Source(prefix, random.nextBoolean());
            case 1 -> new Match.Destination(prefix, random.nextBoolean());
            case 2 -> new Match.InInterface("eth" + random.nextInt(2), random.nextBoolean());
            case 3 -> new Match.OutInterface("eth" + random.nextInt(2), random.nextBoolean());
            case 4 -> new Match.ProtocolIs(random.nextBoolean() ? Protocol.TCP : Protocol.UDP);
            case 5 -> new Match.SourcePort(random.nextInt(3));
            case 6 -> new Match.DestinationPort(random.nextInt(3));
            case 7 -> new Match.TcpSyn();
            case 8 -> new Match.MarkIs(random.nextInt(3), 0xffff, random.nextBoolean());
            case 10 -> new Match.ProtocolModule();
            case 9 -> new Match.SetMatch("SET-" + random.nextInt(2), random.nextBoolean(), false);
            default -> new Match.DestinationIsLocal(random.nextBoolean());
        };
    }

    /** The documented order: -s -d -i -o -p, then module matches as given, the protocol module's options together where the first was (the bare module once, where it has no option). */
    private static List<Match> reference(List<Match> given) {
        List<Match> ordered = new ArrayList<>();
        for (Class<?> basic : List.of(Match.Source.class, Match.Destination.class, Match.InInterface.class, Match.OutInterface.class,
                Match.ProtocolIs.class)) {
            for (Match match : given) {
                boolean catchAll = match instanceof Match.Source s && !s.negated() && s.prefix().equals(Ipv4Prefix.DEFAULT)
                        || match instanceof Match.Destination d && !d.negated() && d.prefix().equals(Ipv4Prefix.DEFAULT);
                if (basic.isInstance(match) && !catchAll) {
                    ordered.add(match);
                }
            }
        }
        boolean moduleWritten = false;
        for (Match match : given) {
            if (Rule.isBasic(match)) {
                continue;
            }
            if (Rule.isProtocolModuleOption(match)) {
                if (!moduleWritten) {
                    int before = ordered.size();
                    for (Class<?> option : List.of(Match.SourcePort.class, Match.DestinationPort.class, Match.TcpSyn.class)) {
                        given.stream().filter(option::isInstance).forEach(ordered::add);
                    }
                    if (ordered.size() == before) {
                        ordered.add(new Match.ProtocolModule()); // the bare -m tcp/-m udp, once
                    }
                    moduleWritten = true;
                }
                continue;
            }
            ordered.add(match);
        }
        return ordered;
    }
}
