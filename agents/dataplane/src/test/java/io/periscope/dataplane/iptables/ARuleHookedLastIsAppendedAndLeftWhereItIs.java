package io.periscope.dataplane.iptables;

import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.model.topology.Protocol;
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
 * A rule placed {@link io.periscope.plan.netfilter.HookPosition#LAST} in a built-in chain, as
 * upstream's packet filter hooks SUBMARINER-INPUT ({@code AppendUnique}): appended below everyone
 * else's rules when missing, left where it is when present below Periscope's first rules, even with
 * rules appended after it since. The computed outcome is what the transaction leaves.
 */
class ARuleHookedLastIsAppendedAndLeftWhereItIs {

    private static final List<String> PREFIXES = List.of("SUBMARINER-", "SM-GN-");
    private static final Rule TO_INPUT = Rule.of(Target.jump("SUBMARINER-INPUT"), new Match.ProtocolIs(Protocol.UDP),
            new Match.ProtocolModule());
    private static final Rule TO_NEW = Rule.of(Target.jump("SUBMARINER-NEW"));
    private static final Chain SUBMARINER_INPUT = new Chain("SUBMARINER-INPUT",
            List.of(Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4800))));

    private static NetfilterTable desired(List<Rule> first, List<Rule> last) {
        return new NetfilterTable(Table.FILTER, List.of(new Chain("INPUT", first, last), SUBMARINER_INPUT, Chain.empty("SUBMARINER-NEW")));
    }

    private static SavedTable filter(String inputRules) {
        return IptablesSaveParser.parse("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-INPUT - [0:0]
                :SUBMARINER-NEW - [0:0]
                %s-A SUBMARINER-INPUT -p udp -m udp --dport 4800 -j ACCEPT
                COMMIT
                """.formatted(inputRules)).get(Table.FILTER);
    }

    private static List<String> inputAfter(NetfilterTable desired, SavedTable current) {
        var changes = NetfilterDiff.between(current, desired, ChainOwnership.prefixes(PREFIXES));
        return IptablesRestoreRenderer.outcome(Table.FILTER, changes, current).orElseThrow().chain("INPUT").orElseThrow()
                .rules().stream().map(SavedRule::text).toList();
    }

    @Test
    void aMissingJumpIsAppendedBelowTheNodesOwnRules() {
        SavedTable current = filter("-A INPUT -i lo -j ACCEPT\n-A INPUT -j REJECT --reject-with icmp-port-unreachable\n");

        assertThat(IptablesRestoreRenderer.render(desired(List.of(), List.of(TO_INPUT)), current, PREFIXES)).contains("""
                *filter
                -A INPUT -p udp -m udp -j SUBMARINER-INPUT
                COMMIT
                """);
        assertThat(inputAfter(desired(List.of(), List.of(TO_INPUT)), current))
                .containsExactly("-i lo -j ACCEPT", "-j REJECT --reject-with icmp-port-unreachable", "-p udp -m udp -j SUBMARINER-INPUT");
    }

    @Test
    void aJumpWithoutUpstreamsUdpModuleIsReplacedByUpstreamsOne() {
        // What a Periscope before the -m udp wrote: it jumps to SUBMARINER-INPUT, so it is Periscope's.
        SavedTable current = filter("-A INPUT -i lo -j ACCEPT\n-A INPUT -p udp -j SUBMARINER-INPUT\n"
                + "-A INPUT -p udp -m udp --dport 53 -j ACCEPT\n");

        assertThat(IptablesRestoreRenderer.render(desired(List.of(), List.of(TO_INPUT)), current, PREFIXES)).contains("""
                *filter
                -D INPUT -p udp -j SUBMARINER-INPUT
                -A INPUT -p udp -m udp -j SUBMARINER-INPUT
                COMMIT
                """);
        assertThat(inputAfter(desired(List.of(), List.of(TO_INPUT)), current))
                .containsExactly("-i lo -j ACCEPT", "-p udp -m udp --dport 53 -j ACCEPT", "-p udp -m udp -j SUBMARINER-INPUT");
    }

    @Test
    void aJumpWithRulesAppendedAfterItStaysWhereItIs() {
        SavedTable current = filter("-A INPUT -i lo -j ACCEPT\n-A INPUT -p udp -m udp -j SUBMARINER-INPUT\n"
                + "-A INPUT -j REJECT --reject-with icmp-port-unreachable\n");

        assertThat(NetfilterDiff.between(current, desired(List.of(), List.of(TO_INPUT)), ChainOwnership.prefixes(PREFIXES))).isEmpty();
        assertThat(IptablesRestoreRenderer.render(desired(List.of(), List.of(TO_INPUT)), current, PREFIXES)).isEmpty();
    }

    @Test
    void aNewFirstRuleGoesOnTopAndTheLastOneStays() {
        SavedTable current = filter("-A INPUT -i lo -j ACCEPT\n-A INPUT -p udp -m udp -j SUBMARINER-INPUT\n"
                + "-A INPUT -j REJECT --reject-with icmp-port-unreachable\n");
        NetfilterTable desired = desired(List.of(TO_NEW), List.of(TO_INPUT));

        assertThat(IptablesRestoreRenderer.render(desired, current, PREFIXES)).contains("""
                *filter
                -I INPUT 1 -j SUBMARINER-NEW
                COMMIT
                """);
        assertThat(inputAfter(desired, current)).containsExactly("-j SUBMARINER-NEW", "-i lo -j ACCEPT", "-p udp -m udp -j SUBMARINER-INPUT",
                "-j REJECT --reject-with icmp-port-unreachable");
    }

    @Test
    void aJumpOnTopOfPeriscopesFirstRulesMovesBelowThem() {
        SavedTable current = filter("-A INPUT -p udp -m udp -j SUBMARINER-INPUT\n-A INPUT -j SUBMARINER-NEW\n-A INPUT -i lo -j ACCEPT\n");
        NetfilterTable desired = desired(List.of(TO_NEW), List.of(TO_INPUT));

        var changes = NetfilterDiff.between(current, desired, ChainOwnership.prefixes(PREFIXES));
        assertThat(changes).singleElement().isInstanceOfSatisfying(BuiltinChainChange.class,
                c -> assertThat(c.afterInOrder()).containsExactly(TO_NEW, TO_INPUT));
        assertThat(IptablesRestoreRenderer.render(desired, current, PREFIXES)).contains("""
                *filter
                -D INPUT -p udp -m udp -j SUBMARINER-INPUT
                -D INPUT -j SUBMARINER-NEW
                -I INPUT 1 -j SUBMARINER-NEW
                -A INPUT -p udp -m udp -j SUBMARINER-INPUT
                COMMIT
                """);
        assertThat(inputAfter(desired, current)).containsExactly("-j SUBMARINER-NEW", "-i lo -j ACCEPT", "-p udp -m udp -j SUBMARINER-INPUT");
    }
}
