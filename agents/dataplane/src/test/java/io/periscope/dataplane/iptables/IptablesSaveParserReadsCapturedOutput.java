package io.periscope.dataplane.iptables;

import io.periscope.dataplane.Captured;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class IptablesSaveParserReadsCapturedOutput {

    private final Map<Table, SavedTable> tables = IptablesSaveParser.parse(Captured.read("iptables-save.txt"));

    private SavedChain chain(Table table, String name) {
        return tables.get(table).chain(name).orElseThrow();
    }

    private static Match.MarkIs globalnetMark() {
        return new Match.MarkIs(0xc0000, 0xc0000, false);
    }

    @Test
    void readsAllFourTablesWithEveryChain() {
        assertThat(tables).containsOnlyKeys(Table.RAW, Table.MANGLE, Table.NAT, Table.FILTER);
        assertThat(tables.get(Table.NAT).chainNames()).contains("PREROUTING", "POSTROUTING", "KUBE-SERVICES",
                "SUBMARINER-POSTROUTING", "SM-GN-EGRESS-CLUSTER", "SM-GN-EGRESS-NS");
        assertThat(chain(Table.NAT, "SM-GN-EGRESS-NS").rules()).isEmpty();
    }

    @Test
    void seedGlobalnetSnatRuleBecomesItsRecord() {
        assertThat(chain(Table.NAT, "SM-GN-EGRESS-CLUSTER").rules().getFirst()).isEqualTo(new SavedRule.Parsed(
                Rule.of(new Target.Snat(Ipv4Range.parse("242.254.1.1-242.254.1.8")),
                        new Match.Source(Ipv4Prefix.parse("10.0.0.0/16")), globalnetMark()),
                "-s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8"));
    }

    @Test
    void optionsTheModelLacksKeepTheRuleForeign() {
        assertThat(chain(Table.NAT, "SM-GN-EGRESS-CLUSTER").rules().get(1))
                .isEqualTo(new SavedRule.Foreign("-s 10.0.0.0/16 -j SNAT --to-source 242.254.1.1-242.254.1.8 --random-fully"));
        assertThat(chain(Table.FILTER, "FORWARD").rules().get(3))
                .isEqualTo(new SavedRule.Foreign("-m physdev --physdev-is-bridged -j ACCEPT"));
        assertThat(chain(Table.FILTER, "FOREIGN-CHAIN").rules().get(1)).isInstanceOf(SavedRule.Foreign.class);
    }

    @Test
    void aCommentWhereIptablesSyntaxWouldNotPutItKeepsTheRuleForeign() {
        // Written by hand with the comment last; Periscope puts it before the first module, so
        // re-rendering the record would give another text.
        assertThat(chain(Table.NAT, "SM-GN-EGRESS-PODS").rules().getFirst()).isInstanceOf(SavedRule.Foreign.class);
    }

    @Test
    void aBareProtocolModuleIsReadAsItsOwnMatch() {
        assertThat(chain(Table.NAT, "KUBE-SEP-WWP6UFXXL5K3PY6D").parsedRules().getFirst()).isEqualTo(new Rule(
                List.of(new Match.ProtocolIs(Protocol.TCP), new Match.ProtocolModule()),
                new Target.Dnat(Ipv4Address.parse("10.0.128.5"), OptionalInt.of(80)),
                Optional.of("default/submariner-lpq6zr4tl4o5qvrv2t7o3l3gawkagast")));
        // Upstream's INPUT jump as iptables-save prints it, and the same jump without the module: two rules.
        assertThat(IptablesRuleParser.parse("-p udp -m udp -j SUBMARINER-INPUT", Set.of("SUBMARINER-INPUT"))).contains(
                Rule.of(Target.jump("SUBMARINER-INPUT"), new Match.ProtocolIs(Protocol.UDP), new Match.ProtocolModule()));
        assertThat(IptablesRuleParser.parse("-p udp -j SUBMARINER-INPUT", Set.of("SUBMARINER-INPUT"))).contains(
                Rule.of(Target.jump("SUBMARINER-INPUT"), new Match.ProtocolIs(Protocol.UDP)));
    }

    @Test
    void aProtocolModuleOtherThanTheProtocolOrTwiceKeepsTheRuleForeign() {
        assertThat(IptablesRuleParser.parse("-p tcp -m udp -j ACCEPT", Set.of())).isEmpty();
        assertThat(IptablesRuleParser.parse("-p udp -m udp -m udp -j ACCEPT", Set.of())).isEmpty();
        assertThat(IptablesRuleParser.parse("-p udp -m udp -m udp --dport 53 -j ACCEPT", Set.of())).isEmpty();
    }

    @Test
    void kubeProxyServiceRuleWithCommentAndPort() {
        assertThat(chain(Table.NAT, "KUBE-SERVICES").parsedRules().getFirst()).isEqualTo(new Rule(
                List.of(new Match.Destination(Ipv4Prefix.parse("100.2.0.132/32")), new Match.ProtocolIs(Protocol.TCP),
                        new Match.DestinationPort(80)),
                new Target.Jump("KUBE-SVC-X7Q2"), Optional.of("default/nginx:http cluster IP")));
        assertThat(chain(Table.NAT, "KUBE-SVC-X7Q2").parsedRules().getFirst().matches())
                .containsExactly(new Match.RandomProbability(1.0 / 3));
    }

    @Test
    void everyTargetKindOfTheModel() {
        assertThat(chain(Table.RAW, "SUBMARINER-RAW").parsedRules()).containsExactly(
                Rule.of(new Target.NoTrack(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4500)),
                Rule.of(new Target.NoTrack(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4800)));
        assertThat(chain(Table.MANGLE, "SUBMARINER-PREROUTING").parsedRules()).containsExactly(
                Rule.of(new Target.SetMark(0x100000, 0x100000), new Match.InInterface("vxlan-tunnel")),
                Rule.of(new Target.SetConnMark(0x1, 0xffffffff), new Match.ConnMarkIs(0x10, 0xff)),
                Rule.of(new Target.ClampMssToPmtu(), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn()),
                Rule.of(new Target.SetMss(1360), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn(), new Match.MarkIs(0x4000, 0x4000, false)));
        assertThat(chain(Table.NAT, "POSTROUTING").parsedRules()).containsExactly(
                Rule.of(Target.jump("SUBMARINER-POSTROUTING")),
                Rule.of(new Target.Masquerade(), new Match.Source(Ipv4Prefix.parse("10.0.0.0/16")),
                        new Match.Destination(Ipv4Prefix.parse("10.0.0.0/8"), true)));
        assertThat(chain(Table.NAT, "SUBMARINER-GN-INGRESS").parsedRules()).containsExactly(new Rule(
                List.of(new Match.Destination(Ipv4Prefix.parse("242.254.1.30/32"))),
                new Target.Dnat(Ipv4Address.parse("10.0.1.5"), OptionalInt.empty()), Optional.of("default/nginx-0")));
        assertThat(chain(Table.FILTER, "FOREIGN-CHAIN").parsedRules())
                .containsExactly(Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.ICMP)), Rule.of(new Target.Return()));
    }

    @Test
    void seedDnatConntrackSnatAndNegatedSetAndAddrtype() {
        assertThat(chain(Table.NAT, "SUBMARINER-POSTROUTING").parsedRules().get(1)).isEqualTo(Rule.of(
                new Target.Snat(Ipv4Range.parse("10.0.0.1")), new Match.OutInterface("weave"),
                new Match.MarkIs(0x100000, 0x100000, false), new Match.ConnState(Set.of(CtState.DNAT), false)));
        assertThat(chain(Table.FILTER, "SUBMARINER-FORWARD").parsedRules()).containsExactly(
                Rule.of(Target.accept(), new Match.ConnState(Set.of(CtState.ESTABLISHED, CtState.RELATED), false)),
                Rule.of(new Target.Drop(), new Match.SetMatch("SUBMARINER-LOCALIPS", false, true), new Match.DestinationIsLocal(true)));
    }

    @Test
    void seedForwardAcceptSitsAfterTheJumpsInFilterForward() {
        assertThat(chain(Table.FILTER, "FORWARD").parsedRules()).containsExactly(
                Rule.of(Target.jump("SUBMARINER-FWD-MSSCLAMP")), Rule.of(Target.jump("SUBMARINER-FORWARD")),
                Rule.of(Target.accept(), new Match.Destination(Ipv4Prefix.parse("10.1.0.0/16")), new Match.InInterface("vxlan-tunnel")));
    }

    @Test
    void aJumpIsOnlyToAChainOfTheTable() {
        assertThat(IptablesRuleParser.parse("-j LOG", Set.of("KUBE-SERVICES"))).isEmpty();
        assertThat(IptablesRuleParser.parse("-j KUBE-SERVICES", Set.of("KUBE-SERVICES"))).contains(Rule.of(Target.jump("KUBE-SERVICES")));
    }

    @Test
    void quotedCommentsWithEscapesReadBack() {
        String text = "-m comment --comment \"a\\'b \\\"c\\\" \\\\\" -j ACCEPT";

        assertThat(IptablesRuleParser.parse(text, Set.of())).contains(Rule.of(Target.accept()).withComment("a'b \"c\" \\"));
    }
}
