package io.periscope.dataplane.iptables;

import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ACCEPTs of nat SUBMARINER-POSTROUTING come in the order remote Endpoints arrived (upstream's
 * route agent appends them per Endpoint), which the plan cannot know: a chain whose rules differ from
 * the plan's only by the order of rules no packet can tell apart is in place; any other order is a
 * difference, and the chain is rewritten.
 */
class RulesApartFromEachOtherMayComeInAnyOrder {

    private static final String POSTROUTING = "SUBMARINER-POSTROUTING";
    private static final List<String> PREFIXES = List.of("SUBMARINER-");

    /** The kernel's nat table with {@code rules} as SUBMARINER-POSTROUTING, in iptables-save's words. */
    private static SavedTable nat(String rules) {
        return IptablesSaveParser.parse("""
                *nat
                :PREROUTING ACCEPT [0:0]
                :INPUT ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :POSTROUTING ACCEPT [0:0]
                :SUBMARINER-POSTROUTING - [0:0]
                -A POSTROUTING -j SUBMARINER-POSTROUTING
                %sCOMMIT
                """.formatted(rules)).get(Table.NAT);
    }

    private static NetfilterTable plan(Rule... rules) {
        return new NetfilterTable(Table.NAT, List.of(new Chain("POSTROUTING", List.of(Rule.of(Target.jump(POSTROUTING)))),
                new Chain(POSTROUTING, List.of(rules))));
    }

    private static List<DataplaneChange> changes(SavedTable current, NetfilterTable desired) {
        return NetfilterDiff.between(current, desired, ChainOwnership.prefixes(PREFIXES));
    }

    private static Rule accept(String source, String destination) {
        return Rule.of(Target.accept(), new Match.Source(Ipv4Prefix.parse(source), false), new Match.Destination(Ipv4Prefix.parse(destination), false));
    }

    /** beta's plan: alpha's subnets, then gamma's, as the topology file lists them. */
    private static final NetfilterTable BETA = plan(
            accept("10.20.0.0/16", "10.110.0.0/16"), accept("10.110.0.0/16", "10.20.0.0/16"),
            accept("10.20.0.0/16", "10.10.0.0/16"), accept("10.10.0.0/16", "10.20.0.0/16"),
            accept("10.20.0.0/16", "10.130.0.0/16"), accept("10.130.0.0/16", "10.20.0.0/16"),
            accept("10.20.0.0/16", "10.30.0.0/16"), accept("10.30.0.0/16", "10.20.0.0/16"));

    @Test
    void theAcceptsOfRemoteClustersInTheOrderTheirEndpointsArrivedAreInPlace() {
        // gamma's Endpoint came before alpha's.
        SavedTable kernel = nat("""
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.130.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.130.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.30.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.30.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.110.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.110.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.10.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.10.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                """);

        assertThat(changes(kernel, BETA)).isEmpty();
    }

    @Test
    void aMissingAcceptIsStillADifferenceWhateverTheOrder() {
        SavedTable kernel = nat("""
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.130.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.130.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.30.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.30.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.110.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.110.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.10.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.10.0.0/16 -j ACCEPT
                """);

        assertThat(changes(kernel, BETA)).singleElement().isInstanceOf(ChainChange.class);
    }

    @Test
    void aMasqueradeMovedAboveTheAcceptItOverlapsIsADifference() {
        // Above the ACCEPT, the MASQUERADE takes the cross-cluster traffic the ACCEPT keeps intact.
        NetfilterTable plan = plan(accept("10.20.0.0/16", "10.10.0.0/16"), Rule.of(new Target.Masquerade(),
                new Match.Source(Ipv4Prefix.parse("10.20.0.0/16"), false)));
        SavedTable kernel = nat("""
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -j MASQUERADE
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.10.0.0/16 -j ACCEPT
                """);

        assertThat(changes(kernel, plan)).singleElement().isInstanceOf(ChainChange.class);
    }

    @Test
    void acceptsWhoseAddressesOverlapKeepTheirOrder() {
        // The same verdict either way, but not the same rule: the counters a trace names would differ.
        NetfilterTable plan = plan(accept("10.20.0.0/16", "10.10.0.0/16"), accept("10.20.0.0/16", "10.10.5.0/24"));
        SavedTable kernel = nat("""
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.10.5.0/24 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.10.0.0/16 -j ACCEPT
                """);

        assertThat(changes(kernel, plan)).singleElement().isInstanceOf(ChainChange.class);
    }

    @Test
    void rulesThatMatchMoreThanAddressesKeepTheirOrder() {
        Rule overVxlan = Rule.of(Target.accept(), new Match.Source(Ipv4Prefix.parse("10.20.0.0/16"), false),
                new Match.OutInterface("vx-submariner", false));
        NetfilterTable plan = plan(overVxlan, accept("10.10.0.0/16", "10.20.0.0/16"));
        SavedTable kernel = nat("""
                -A SUBMARINER-POSTROUTING -s 10.10.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -o vx-submariner -j ACCEPT
                """);

        assertThat(changes(kernel, plan)).singleElement().isInstanceOf(ChainChange.class);
    }

    @Test
    void anAcceptMovedAcrossARuleOfAnotherTargetIsADifference() {
        // Apart from both, yet an ACCEPT may not cross the SNAT: a run ends where the target changes.
        Rule hostNetwork = Rule.of(new Target.Snat(io.periscope.model.net.Ipv4Range.single(io.periscope.model.net.Ipv4Address.parse("10.20.0.1"))),
                new Match.Source(Ipv4Prefix.parse("240.0.0.0/8"), false));
        NetfilterTable plan = plan(accept("10.20.0.0/16", "10.10.0.0/16"), hostNetwork, accept("10.10.0.0/16", "10.20.0.0/16"));
        SavedTable kernel = nat("""
                -A SUBMARINER-POSTROUTING -s 10.20.0.0/16 -d 10.10.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 10.10.0.0/16 -d 10.20.0.0/16 -j ACCEPT
                -A SUBMARINER-POSTROUTING -s 240.0.0.0/8 -j SNAT --to-source 10.20.0.1
                """);

        assertThat(changes(kernel, plan)).singleElement().isInstanceOf(ChainChange.class);
    }
}
