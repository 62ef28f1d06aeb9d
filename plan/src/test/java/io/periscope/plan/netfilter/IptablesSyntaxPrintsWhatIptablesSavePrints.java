package io.periscope.plan.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Protocol;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The expected texts are what iptables-save v1.8.9 (nf_tables) printed for these rules on the lab
 * kernel; the dataplane module's round-trip tests check the same against a live kernel.
 */
class IptablesSyntaxPrintsWhatIptablesSavePrints {

    private static Ipv4Prefix cidr(String text) {
        return Ipv4Prefix.parse(text);
    }

    @Test
    void addressesInterfacesAndProtocolComeFirstInFixedOrder() {
        Rule rule = Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.TCP), new Match.OutInterface("eth1"),
                new Match.InInterface("eth0"), new Match.Destination(cidr("10.0.0.0/8")), new Match.Source(cidr("10.0.0.0/8")));

        assertThat(IptablesSyntax.rule(rule)).isEqualTo("-s 10.0.0.0/8 -d 10.0.0.0/8 -i eth0 -o eth1 -p tcp -j ACCEPT");
    }

    @Test
    void seedForwardRulePrintsDestinationBeforeInterface() {
        Rule rule = Rule.of(Target.accept(), new Match.InInterface("vxlan-tunnel"), new Match.Destination(cidr("10.1.0.0/16")));

        assertThat(IptablesSyntax.appendLine("FORWARD", rule)).isEqualTo("-A FORWARD -d 10.1.0.0/16 -i vxlan-tunnel -j ACCEPT");
    }

    @Test
    void portsAndTcpFlagsShareOneModuleWhereTheFirstOfThemWas() {
        Rule rule = Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn(),
                new Match.MarkIs(1, -1, false), new Match.DestinationPort(80), new Match.SourcePort(3));

        assertThat(IptablesSyntax.rule(rule))
                .isEqualTo("-p tcp -m tcp --sport 3 --dport 80 --tcp-flags SYN,RST SYN -m mark --mark 0x1 -j ACCEPT");
    }

    @Test
    void aBareProtocolModulePrintsAsUpstreamsJumpShowsInIptablesSave() {
        // Upstream's INPUT jump (ToRuleSpec writes -m udp after -p udp); iptables-save v1.8.9 printed it so.
        Rule jump = Rule.of(Target.jump("SUBMARINER-INPUT"), new Match.ProtocolIs(Protocol.UDP), new Match.ProtocolModule());
        Rule tcp = Rule.of(Target.accept(), new Match.ProtocolModule(), new Match.MarkIs(1, -1, false), new Match.ProtocolIs(Protocol.TCP));

        assertThat(IptablesSyntax.rule(jump)).isEqualTo("-p udp -m udp -j SUBMARINER-INPUT");
        assertThat(IptablesSyntax.rule(tcp)).isEqualTo("-p tcp -m tcp -m mark --mark 0x1 -j ACCEPT");
    }

    @Test
    void aBareProtocolModuleIsTheModuleAPortOptionLoadsAnyway() {
        Rule bare = Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP), new Match.ProtocolModule(), new Match.DestinationPort(4800));
        Rule port = Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4800));

        assertThat(bare).isEqualTo(port);
        assertThat(IptablesSyntax.rule(bare)).isEqualTo("-p udp -m udp --dport 4800 -j ACCEPT");
        assertThat(Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP), new Match.ProtocolModule(), new Match.ProtocolModule()).matches())
                .containsExactly(new Match.ProtocolIs(Protocol.UDP), new Match.ProtocolModule());
    }

    @Test
    void aBareProtocolModuleNeedsTcpOrUdp() {
        assertThatThrownBy(() -> IptablesSyntax.rule(Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.ICMP), new Match.ProtocolModule())))
                .hasMessageContaining("-m tcp/-m udp needs -p tcp or -p udp");
        assertThatThrownBy(() -> IptablesSyntax.rule(Rule.of(Target.accept(), new Match.ProtocolModule())))
                .hasMessageContaining("-m tcp/-m udp needs -p tcp or -p udp");
    }

    @Test
    void moduleMatchesKeepTheirGivenOrder() {
        Rule rule = Rule.of(new Target.ClampMssToPmtu(), new Match.ProtocolIs(Protocol.TCP), new Match.MarkIs(1, -1, false),
                new Match.TcpSyn());

        assertThat(IptablesSyntax.rule(rule)).isEqualTo("-p tcp -m mark --mark 0x1 -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu");
    }

    @Test
    void aForcedMssPrintsAsSetMssAndAWholeMarkWithoutItsMask() {
        // iptables-save of upstream's MTU handler and Globalnet rules (iptables 1.8.9, nf_tables).
        Rule mss = Rule.of(new Target.SetMss(1380), new Match.ProtocolIs(Protocol.TCP), new Match.SetMatch("SUBMARINER-LOCALCIDRS", true, false),
                new Match.SetMatch("SUBMARINER-REMOTECIDRS", false, false), new Match.TcpSyn());
        Rule mark = Rule.of(new Target.SetMark(0xc0000, 0xffffffff), new Match.Destination(io.periscope.model.net.Ipv4Prefix.parse("242.1.0.0/16")));
        Rule marked = Rule.of(new Target.Snat(Ipv4Range.parse("242.0.0.1-242.0.0.8")), new Match.MarkIs(0xc0000, 0xffffffff, false));

        assertThat(IptablesSyntax.rule(mss)).isEqualTo("-p tcp -m set --match-set SUBMARINER-LOCALCIDRS src -m set --match-set"
                + " SUBMARINER-REMOTECIDRS dst -m tcp --tcp-flags SYN,RST SYN -j TCPMSS --set-mss 1380");
        assertThat(IptablesSyntax.rule(mark)).isEqualTo("-d 242.1.0.0/16 -j MARK --set-xmark 0xc0000/0xffffffff");
        assertThat(IptablesSyntax.rule(marked)).isEqualTo("-m mark --mark 0xc0000 -j SNAT --to-source 242.0.0.1-242.0.0.8");
    }

    @Test
    void connStatesPrintInTheConntrackModulesOrder() {
        Rule rule = Rule.of(Target.accept(), new Match.ConnState(Set.of(CtState.values()), true));
        Rule established = Rule.of(Target.accept(), new Match.ConnState(Set.of(CtState.ESTABLISHED, CtState.RELATED), false));

        assertThat(IptablesSyntax.rule(rule)).isEqualTo("-m conntrack ! --ctstate INVALID,NEW,RELATED,ESTABLISHED,UNTRACKED,SNAT,DNAT -j ACCEPT");
        assertThat(IptablesSyntax.rule(established)).isEqualTo("-m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT");
    }

    @Test
    void markMatchesLeaveOutAFullMaskButTargetsDoNot() {
        assertThat(IptablesSyntax.rule(Rule.of(Target.accept(), new Match.MarkIs(0x1, 0xffffffff, true))))
                .isEqualTo("-m mark ! --mark 0x1 -j ACCEPT");
        assertThat(IptablesSyntax.rule(Rule.of(Target.accept(), new Match.ConnMarkIs(0x10, 0xff))))
                .isEqualTo("-m connmark --mark 0x10/0xff -j ACCEPT");
        assertThat(IptablesSyntax.rule(Rule.of(new Target.SetMark(0, 0xffffffff))))
                .isEqualTo("-j MARK --set-xmark 0x0/0xffffffff");
    }

    @Test
    void probabilityPrintsTheKernelsFraction() {
        assertThat(IptablesSyntax.rule(Rule.of(new Target.Return(), new Match.RandomProbability(1.0 / 3))))
                .isEqualTo("-m statistic --mode random --probability 0.33333333349 -j RETURN");
        assertThat(IptablesSyntax.rule(Rule.of(new Target.Return(), new Match.RandomProbability(0.1))))
                .isEqualTo("-m statistic --mode random --probability 0.10000000009 -j RETURN");
    }

    @Test
    void probabilityReadBackEqualsTheOneWritten() {
        assertThat(new Match.RandomProbability(0.33333333349)).isEqualTo(new Match.RandomProbability(1.0 / 3));
    }

    @Test
    void commentsAreQuotedUnlessMadeOfWordCharacters() {
        Rule kubeProxy = new Rule(List.of(new Match.ProtocolIs(Protocol.TCP), new Match.DestinationPort(80)),
                new Target.Dnat(Ipv4Address.parse("10.0.128.5"), OptionalInt.of(80)), Optional.of("default/submariner-lpq6zr"));

        assertThat(IptablesSyntax.rule(kubeProxy))
                .isEqualTo("-p tcp -m comment --comment \"default/submariner-lpq6zr\" -m tcp --dport 80 -j DNAT --to-destination 10.0.128.5:80");
        assertThat(IptablesSyntax.quote("simple_name-1")).isEqualTo("simple_name-1");
        assertThat(IptablesSyntax.quote("a.b")).isEqualTo("\"a.b\"");
        assertThat(IptablesSyntax.quote("a'b \"c\" \\")).isEqualTo("\"a\\'b \\\"c\\\" \\\\\"");
    }

    @Test
    void aCommentWithoutModuleMatchesGoesBeforeTheTarget() {
        Rule rule = Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.ICMP)).withComment("x y");

        assertThat(IptablesSyntax.rule(rule)).isEqualTo("-p icmp -m comment --comment \"x y\" -j ACCEPT");
    }

    @Test
    void anAnySourceIsDroppedLikeTheKernelDoes() {
        Rule rule = Rule.of(Target.accept(), new Match.Source(Ipv4Prefix.DEFAULT));

        assertThat(IptablesSyntax.rule(rule)).isEqualTo("-j ACCEPT");
        assertThat(rule).isEqualTo(Rule.of(Target.accept()));
    }

    @Test
    void seedGlobalnetEgressRule() {
        Rule rule = Rule.of(new Target.Snat(Ipv4Range.parse("242.254.1.1-242.254.1.8")), new Match.MarkIs(0xc0000, 0xc0000, false),
                new Match.Source(cidr("10.0.0.0/16")));

        assertThat(IptablesSyntax.appendLine("SM-GN-EGRESS-CLUSTER", rule))
                .isEqualTo("-A SM-GN-EGRESS-CLUSTER -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8");
    }
}
