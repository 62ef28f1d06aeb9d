package io.periscope.dataplane.iptables;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IptablesRestoreRendererWritesTheMinimalTransaction {

    private static final List<String> PREFIXES = List.of("SUBMARINER-", "SM-GN-");
    private static final Rule TO_FORWARD = Rule.of(Target.jump("SUBMARINER-FORWARD"));
    private static final Rule TO_CLAMP = Rule.of(Target.jump("SUBMARINER-FWD-MSSCLAMP"));
    private static final Rule ACCEPT_POD_CIDR = Rule.of(Target.accept(), new Match.Destination(Ipv4Prefix.parse("10.1.0.0/16")),
            new Match.InInterface("vxlan-tunnel"));

    private static SavedTable filter(String saveText) {
        return IptablesSaveParser.parse(saveText).get(Table.FILTER);
    }

    private static NetfilterTable desired(List<Rule> forward, Chain... owned) {
        List<Chain> chains = new ArrayList<>(List.of(new Chain("FORWARD", forward)));
        chains.addAll(List.of(owned));
        return new NetfilterTable(Table.FILTER, chains);
    }

    @Test
    void aFreshTableGetsDeclarationsInsertionsAndAppends() {
        NetfilterTable desired = desired(List.of(TO_CLAMP, TO_FORWARD, ACCEPT_POD_CIDR),
                new Chain("SUBMARINER-FORWARD", List.of(Rule.of(Target.accept()))), Chain.empty("SUBMARINER-FWD-MSSCLAMP"));

        assertThat(IptablesRestoreRenderer.render(desired, SavedTable.empty(Table.FILTER), PREFIXES)).contains("""
                *filter
                :SUBMARINER-FORWARD - [0:0]
                :SUBMARINER-FWD-MSSCLAMP - [0:0]
                -I FORWARD 1 -j SUBMARINER-FWD-MSSCLAMP
                -I FORWARD 2 -j SUBMARINER-FORWARD
                -I FORWARD 3 -d 10.1.0.0/16 -i vxlan-tunnel -j ACCEPT
                -A SUBMARINER-FORWARD -j ACCEPT
                COMMIT
                """);
    }

    @Test
    void nothingDifferentMeansNoTransaction() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                -A FORWARD -j SUBMARINER-FORWARD
                -A FORWARD -m physdev --physdev-is-bridged -j ACCEPT
                -A SUBMARINER-FORWARD -j ACCEPT
                COMMIT
                """);

        assertThat(IptablesRestoreRenderer.render(desired(List.of(TO_FORWARD), new Chain("SUBMARINER-FORWARD",
                List.of(Rule.of(Target.accept())))), current, PREFIXES)).isEmpty();
    }

    @Test
    void aMissingJumpIsInsertedBelowThoseInPlaceAndForeignRulesAreNotMentioned() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                :SUBMARINER-FWD-MSSCLAMP - [0:0]
                -A FORWARD -j SUBMARINER-FWD-MSSCLAMP
                -A FORWARD -p icmp -j ACCEPT
                -A FORWARD -m physdev --physdev-is-bridged -j ACCEPT
                COMMIT
                """);

        String text = IptablesRestoreRenderer.render(desired(List.of(TO_CLAMP, TO_FORWARD), Chain.empty("SUBMARINER-FORWARD"),
                Chain.empty("SUBMARINER-FWD-MSSCLAMP")), current, PREFIXES).orElseThrow();

        assertThat(text).isEqualTo("*filter\n-I FORWARD 2 -j SUBMARINER-FORWARD\nCOMMIT\n");
    }

    @Test
    void staleJumpsGoAndTheirChainIsFlushedAndDeleted() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                :SM-GN-OLD - [0:0]
                -A FORWARD -j SUBMARINER-FORWARD
                -A FORWARD -p icmp -j ACCEPT
                -A FORWARD -j SM-GN-OLD
                -A SM-GN-OLD -j DROP
                COMMIT
                """);

        String text = IptablesRestoreRenderer.render(desired(List.of(TO_FORWARD), Chain.empty("SUBMARINER-FORWARD")),
                current, PREFIXES).orElseThrow();

        assertThat(text).isEqualTo("*filter\n:SM-GN-OLD - [0:0]\n-D FORWARD -j SM-GN-OLD\n-X SM-GN-OLD\nCOMMIT\n");
    }

    @Test
    void ownJumpsPushedDownByAForeignRuleMoveBackToTheTop() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                :SUBMARINER-FWD-MSSCLAMP - [0:0]
                -A FORWARD -j SUBMARINER-FWD-MSSCLAMP
                -A FORWARD -p icmp -j DROP
                -A FORWARD -j SUBMARINER-FORWARD
                COMMIT
                """);

        String text = IptablesRestoreRenderer.render(desired(List.of(TO_CLAMP, TO_FORWARD), Chain.empty("SUBMARINER-FORWARD"),
                Chain.empty("SUBMARINER-FWD-MSSCLAMP")), current, PREFIXES).orElseThrow();

        assertThat(text).isEqualTo("*filter\n-D FORWARD -j SUBMARINER-FORWARD\n-I FORWARD 2 -j SUBMARINER-FORWARD\nCOMMIT\n");
    }

    @Test
    void aDuplicateBelowTheKeptRunShortensTheRunSoDeletionByTextHitsTheRightOne() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                :SUBMARINER-FWD-MSSCLAMP - [0:0]
                -A FORWARD -j SUBMARINER-FORWARD
                -A FORWARD -p icmp -j DROP
                -A FORWARD -j SUBMARINER-FORWARD
                COMMIT
                """);

        String text = IptablesRestoreRenderer.render(desired(List.of(TO_FORWARD, TO_CLAMP), Chain.empty("SUBMARINER-FORWARD"),
                Chain.empty("SUBMARINER-FWD-MSSCLAMP")), current, PREFIXES).orElseThrow();

        // Both copies go (deleting by text takes the first each time), then both rules are inserted.
        assertThat(text).isEqualTo("""
                *filter
                -D FORWARD -j SUBMARINER-FORWARD
                -D FORWARD -j SUBMARINER-FORWARD
                -I FORWARD 1 -j SUBMARINER-FORWARD
                -I FORWARD 2 -j SUBMARINER-FWD-MSSCLAMP
                COMMIT
                """);
    }

    @Test
    void anOwnedChainHoldingARuleTheModelCannotSayIsRefilled() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                -A SUBMARINER-FORWARD -j ACCEPT
                -A SUBMARINER-FORWARD -m limit --limit 5/sec -j LOG
                COMMIT
                """);
        Chain wanted = new Chain("SUBMARINER-FORWARD", List.of(Rule.of(Target.accept())));

        String text = IptablesRestoreRenderer.render(new NetfilterTable(Table.FILTER, List.of(wanted)), current, PREFIXES).orElseThrow();

        assertThat(text).isEqualTo("*filter\n:SUBMARINER-FORWARD - [0:0]\n-A SUBMARINER-FORWARD -j ACCEPT\nCOMMIT\n");
    }

    @Test
    void chainsOfOthersAreNeverDeclaredOrDeleted() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :KUBE-FORWARD - [0:0]
                -A FORWARD -j KUBE-FORWARD
                -A KUBE-FORWARD -j ACCEPT
                COMMIT
                """);

        assertThat(IptablesRestoreRenderer.render(new NetfilterTable(Table.FILTER, List.of()), current, PREFIXES)).isEmpty();
        assertThat(IptablesRestoreRenderer.render(new NetfilterTable(Table.FILTER, List.of()), current, List.of("KUBE-")))
                .contains("*filter\n:KUBE-FORWARD - [0:0]\n-D FORWARD -j KUBE-FORWARD\n-X KUBE-FORWARD\nCOMMIT\n");
    }

    @Test
    void aJumpToAnUndeclaredOwnedChainIsAPlanError() {
        NetfilterTable desired = desired(List.of(TO_FORWARD));

        assertThatThrownBy(() -> IptablesRestoreRenderer.render(desired, SavedTable.empty(Table.FILTER), PREFIXES))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jumps to SUBMARINER-FORWARD")
                .hasMessageContaining("declare the chain in the plan");
    }

    @Test
    void aRuleOfTheBuiltinChainThatThePlanDropsIsRemovedOnlyWhenItIsAJumpOfOurs() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                -A FORWARD -d 10.1.0.0/16 -i vxlan-tunnel -j ACCEPT
                COMMIT
                """);

        // Without a jump to an owned chain, a rule Periscope once listed looks like anyone's.
        assertThat(IptablesRestoreRenderer.render(new NetfilterTable(Table.FILTER, List.of()), current, PREFIXES)).isEqualTo(Optional.empty());
    }

    private static Rule acceptFrom(String cidr) {
        return Rule.of(Target.accept(), new Match.Source(Ipv4Prefix.parse(cidr), false));
    }

    @Test
    void aLongOwnedChainOffByAFewRulesIsEditedByRuleNumberNotRefilled() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                -A FORWARD -j SUBMARINER-FORWARD
                -A SUBMARINER-FORWARD -s 10.0.0.1/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.2/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.3/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.4/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.5/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.6/32 -j ACCEPT
                COMMIT
                """);
        Chain wanted = new Chain("SUBMARINER-FORWARD", List.of(acceptFrom("10.0.0.1/32"), acceptFrom("10.0.0.3/32"),
                acceptFrom("10.0.0.4/32"), acceptFrom("10.0.0.9/32"), acceptFrom("10.0.0.5/32"), acceptFrom("10.0.0.6/32")));

        assertThat(IptablesRestoreRenderer.render(desired(List.of(TO_FORWARD), wanted), current, PREFIXES)).contains("""
                *filter
                -D SUBMARINER-FORWARD 2
                -I SUBMARINER-FORWARD 4 -s 10.0.0.9/32 -j ACCEPT
                COMMIT
                """);
    }

    @Test
    void rulesBelowTheLastOneAreAppendedSoIptablesNeedNotFetchTheTable() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                -A FORWARD -j SUBMARINER-FORWARD
                -A SUBMARINER-FORWARD -s 10.0.0.1/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.2/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.3/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.4/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.5/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.6/32 -j ACCEPT
                COMMIT
                """);
        Chain wanted = new Chain("SUBMARINER-FORWARD", List.of(acceptFrom("10.0.0.1/32"), acceptFrom("10.0.0.2/32"),
                acceptFrom("10.0.0.3/32"), acceptFrom("10.0.0.4/32"), acceptFrom("10.0.0.6/32"), acceptFrom("10.0.0.7/32"),
                acceptFrom("10.0.0.8/32")));

        assertThat(IptablesRestoreRenderer.render(desired(List.of(TO_FORWARD), wanted), current, PREFIXES)).contains("""
                *filter
                -D SUBMARINER-FORWARD 5
                -A SUBMARINER-FORWARD -s 10.0.0.7/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.8/32 -j ACCEPT
                COMMIT
                """);
    }

    @Test
    void anOwnedChainMostlyReplacedIsRefilled() {
        SavedTable current = filter("""
                *filter
                :INPUT ACCEPT [0:0]
                :FORWARD ACCEPT [0:0]
                :OUTPUT ACCEPT [0:0]
                :SUBMARINER-FORWARD - [0:0]
                -A FORWARD -j SUBMARINER-FORWARD
                -A SUBMARINER-FORWARD -s 10.0.0.1/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.2/32 -j ACCEPT
                COMMIT
                """);
        Chain wanted = new Chain("SUBMARINER-FORWARD", List.of(acceptFrom("10.0.0.7/32"), acceptFrom("10.0.0.8/32")));

        assertThat(IptablesRestoreRenderer.render(desired(List.of(TO_FORWARD), wanted), current, PREFIXES)).contains("""
                *filter
                :SUBMARINER-FORWARD - [0:0]
                -A SUBMARINER-FORWARD -s 10.0.0.7/32 -j ACCEPT
                -A SUBMARINER-FORWARD -s 10.0.0.8/32 -j ACCEPT
                COMMIT
                """);
    }
}
