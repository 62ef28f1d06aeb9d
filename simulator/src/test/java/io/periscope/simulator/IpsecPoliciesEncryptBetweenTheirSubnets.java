package io.periscope.simulator;

import io.periscope.model.policy.EspEncapsulation;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoGatewaysOverTheWan.CLIENT;
import static io.periscope.simulator.TwoGatewaysOverTheWan.G1;
import static io.periscope.simulator.TwoGatewaysOverTheWan.G2;
import static org.assertj.core.api.Assertions.assertThat;

/** g1 and g2 route each other's pod CIDR out of wan0, and Libreswan connections cover 10.1.0.0/16 <-> 10.2.0.0/16. */
class IpsecPoliciesEncryptBetweenTheirSubnets {

    private final TwoGatewaysOverTheWan wan = new TwoGatewaysOverTheWan();

    private static IpsecConnection connection(String name, String left, String leftSubnet, int leftPort, String right,
                                              String rightSubnet, int rightPort) {
        return connection(name, left, leftSubnet, leftPort, right, rightSubnet, rightPort, new EspEncapsulation.Forced());
    }

    private static IpsecConnection connection(String name, String left, String leftSubnet, int leftPort, String right,
                                              String rightSubnet, int rightPort, EspEncapsulation encapsulation) {
        return new IpsecConnection(name, ip(left), ip(left), net(leftSubnet), leftPort, ip(right), ip(right), net(rightSubnet),
                rightPort, "psk", encapsulation, Optional.empty(), Optional.empty());
    }

    /** Both ends' connections, ESP in UDP on 4500 or bare as {@code encapsulation} says. */
    private TwoGatewaysOverTheWan connected(EspEncapsulation encapsulation) {
        routed().g1.ipsec(connection("to-c2-0-0", "198.51.100.1", "10.1.0.0/16", 4500, "198.51.100.2", "10.2.0.0/16", 4500, encapsulation));
        wan.g2.ipsec(connection("to-c1-0-0", "198.51.100.2", "10.2.0.0/16", 4500, "198.51.100.1", "10.1.0.0/16", 4500, encapsulation));
        return wan;
    }

    TwoGatewaysOverTheWan routed() {
        wan.g1.route("table 100 10.2.0.0/16 dev wan0 src 10.1.0.1");
        wan.g2.route("table 100 10.1.0.0/16 dev wan0 src 10.2.0.1");
        return wan;
    }

    @Test
    void aPacketTheOutboundPolicyCoversLeavesAsEspInUdpAndTheOtherEndOfTheSaOpensIt() {
        routed().g1.ipsec(connection("to-c2-0-0", "198.51.100.1", "10.1.0.0/16", 4500, "198.51.100.2", "10.2.0.0/16", 4501));
        wan.g2.ipsec(connection("to-c1-0-0", "198.51.100.2", "10.2.0.0/16", 4501, "198.51.100.1", "10.1.0.0/16", 4500));
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        Hop sender = hopAt(path.forward(), G1);
        assertThat(sender.out()).contains("wan0");
        Step.Encap encap = steps(List.of(sender), Step.Encap.class).getFirst();
        assertThat(encap.encapsulation()).isEqualTo(Encapsulation.ESP_IN_UDP);
        assertThat(encap.device()).isEqualTo("to-c2-0-0");
        assertThat(encap.encrypted()).isTrue();
        assertThat(encap.packet().sameFlow(PlanFixture.udp("198.51.100.1", 4500, "198.51.100.2", 4501))).isTrue();
        assertThat(encap.resolution()).contains("policy out 10.1.0.0/16 -> 10.2.0.0/16");

        Hop receiver = hopAt(path.forward(), G2);
        assertThat(receiver.in()).contains("wan0");
        Step.Decap decap = steps(List.of(receiver), Step.Decap.class).getFirst();
        assertThat(decap.device()).isEqualTo("to-c1-0-0");
        assertThat(decap.encrypted()).isTrue();
        assertThat(decap.check()).contains("policy in 10.1.0.0/16 -> 10.2.0.0/16");
        assertThat(delivered(path.reply()).sameFlow(packet("10.2.0.5", 5432, "10.1.0.5", 40000))).isTrue();
        assertThat(steps(path.reply(), Step.Encap.class)).singleElement()
                .satisfies(e -> assertThat(e.packet().sameFlow(PlanFixture.udp("198.51.100.2", 4501, "198.51.100.1", 4500))).isTrue());
    }

    @Test
    void espForAnSaTheReceiverHasNoConnectionForIsDropped() {
        routed().g1.ipsec(connection("to-c2-0-0", "198.51.100.1", "10.1.0.0/16", 4500, "198.51.100.2", "10.2.0.0/16", 4500));
        wan.g2.ipsec(connection("to-c1-0-0", "198.51.100.2", "10.2.0.0/16", 4500, "198.51.100.1", "10.1.5.0/24", 4500));
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.forward().getLast().node()).isEqualTo(G2);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("has no IPsec connection from 198.51.100.2 to 198.51.100.1")
                .contains("IKE cannot negotiate that SA"));
    }

    @Test
    void aPacketNoPolicyCoversGoesOutInClearAndTheReasonSaysSo() {
        routed().g1.ipsec(connection("to-c2-0-0", "198.51.100.1", "10.1.7.0/24", 4500, "198.51.100.2", "10.2.0.0/16", 4500));
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        assertThat(steps(path.forward(), Step.Encap.class)).isEmpty();
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r)
                .contains("no IPsec connection of c1/g1 covers 10.1.0.5 -> 10.2.0.5, so it was not encrypted"));
    }

    @Test
    void theMostSpecificPolicyTakesThePacket() {
        routed().g1.ipsec(connection("wide", "198.51.100.1", "10.1.0.0/16", 4500, "198.51.100.2", "10.0.0.0/8", 4500))
                .ipsec(connection("narrow", "198.51.100.1", "10.1.0.0/16", 4500, "198.51.100.2", "10.2.0.0/16", 4500));
        wan.g2.ipsec(connection("back", "198.51.100.2", "10.2.0.0/16", 4500, "198.51.100.1", "10.1.0.0/16", 4500));
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(steps(path.forward(), Step.Encap.class)).singleElement().satisfies(e -> assertThat(e.device()).isEqualTo("narrow"));
    }

    /**
     * A firewall rule for the NAT-T port sees ESP in UDP and not bare ESP, which only a {@code -p esp}
     * rule matches: the receiver's INPUT decides before XFRM opens either.
     */
    @Test
    void aRuleForUdp4500TakesEspInUdpButNotBareEspWhichOnlyAProtocol50RuleMatches() {
        Rule dropNatT = Rule.of(new Target.Drop(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4500));
        connected(new EspEncapsulation.Forced()).g2.append(Table.FILTER, "INPUT", dropNatT);
        PathTrace inUdp = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();
        assertThat(inUdp.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(inUdp.forward().getLast().node()).isEqualTo(G2);

        TwoGatewaysOverTheWan bare = new IpsecPoliciesEncryptBetweenTheirSubnets().connected(new EspEncapsulation.Bare());
        bare.g2.append(Table.FILTER, "INPUT", dropNatT);
        PathTrace esp = bare.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();
        assertThat(esp.disposition()).as(esp.reason().orElse("")).isEqualTo(Disposition.DELIVERED);
        Step.Encap encap = steps(List.of(hopAt(esp.forward(), G1)), Step.Encap.class).getFirst();
        assertThat(encap.encapsulation()).isEqualTo(Encapsulation.ESP);
        assertThat(encap.packet().protocol()).isEqualTo(Protocol.ESP);
        assertThat(steps(List.of(hopAt(esp.forward(), G2)), Step.Decap.class).getFirst().encapsulation()).isEqualTo(Encapsulation.ESP);

        TwoGatewaysOverTheWan blocked = new IpsecPoliciesEncryptBetweenTheirSubnets().connected(new EspEncapsulation.Bare());
        blocked.g2.append(Table.FILTER, "INPUT", Rule.of(new Target.Drop(), new Match.ProtocolIs(Protocol.ESP)));
        PathTrace dropped = blocked.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();
        assertThat(dropped.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(dropped.forward().getLast().node()).isEqualTo(G2);
    }
}
