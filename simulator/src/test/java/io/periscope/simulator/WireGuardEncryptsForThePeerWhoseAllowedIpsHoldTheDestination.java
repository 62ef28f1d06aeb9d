package io.periscope.simulator;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Disposition;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoGatewaysOverTheWan.CLIENT;
import static io.periscope.simulator.TwoGatewaysOverTheWan.G1;
import static io.periscope.simulator.TwoGatewaysOverTheWan.G2;
import static org.assertj.core.api.Assertions.assertThat;

/** g1 and g2 joined by WireGuard devices {@code wg0} listening on UDP 51820 and 51821, keys k1 and k2. */
class WireGuardEncryptsForThePeerWhoseAllowedIpsHoldTheDestination {

    private final TwoGatewaysOverTheWan wan = new TwoGatewaysOverTheWan();

    private static WireGuardPeer peer(String remote, String key, String endpoint, int port, String... allowed) {
        return peer(remote, key, "psk", endpoint, port, allowed);
    }

    private static WireGuardPeer peer(String remote, String key, String psk, String endpoint, int port, String... allowed) {
        return new WireGuardPeer(remote, key, psk, ip(endpoint), port, List.of(allowed).stream().map(Ipv4Prefix::parse).toList(), 10);
    }

    private void connect(String g2AllowsFromG1) {
        wan.g1.route("table 100 10.2.0.0/16 dev wg0 src 10.1.0.1")
                .wireGuard(new WireGuardDevice("wg0", 51820, "k1", 1420, List.of(peer("c2/g2", "k2", "198.51.100.2", 51821, "10.2.0.0/16"))));
        wan.g2.route("table 100 10.1.0.0/16 dev wg0 src 10.2.0.1")
                .wireGuard(new WireGuardDevice("wg0", 51821, "k2", 1420, List.of(peer("c1/g1", "k1", "198.51.100.1", 51820, g2AllowsFromG1))));
    }

    @Test
    void theMessageGoesEncryptedFromTheListenPortToThePeersEndpointAndIsOpenedByTheDeviceOnThatPort() {
        connect("10.1.0.0/16");
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        Hop sender = hopAt(path.forward(), G1);
        assertThat(sender.out()).contains("wg0");
        Step.Encap encap = steps(List.of(sender), Step.Encap.class).getFirst();
        assertThat(encap.encapsulation()).isEqualTo(Encapsulation.WIREGUARD);
        assertThat(encap.encrypted()).isTrue();
        assertThat(encap.vni()).isEmpty();
        assertThat(encap.packet().sameFlow(PlanFixture.udp("198.51.100.1", 51820, "198.51.100.2", 51821))).isTrue();
        assertThat(encap.underlay()).isEqualTo("wan0");
        assertThat(encap.resolution()).contains("peer c2/g2").contains("allowed IP 10.2.0.0/16 holds 10.2.0.5");

        Hop receiver = hopAt(path.forward(), G2);
        assertThat(receiver.in()).contains("wg0");
        assertThat(receiver.arrive().sameFlow(packet("10.1.0.5", 40000, "10.2.0.5", 5432))).isTrue();
        Step.Decap decap = steps(List.of(receiver), Step.Decap.class).getFirst();
        assertThat(decap.encapsulation()).isEqualTo(Encapsulation.WIREGUARD);
        assertThat(decap.encrypted()).isTrue();
        assertThat(decap.port()).isEqualTo(51821);
        assertThat(decap.check()).contains("peer c1/g1").contains("10.1.0.0/16 holds 10.1.0.5");
        assertThat(delivered(path.reply()).sameFlow(packet("10.2.0.5", 5432, "10.1.0.5", 40000))).isTrue();
    }

    @Test
    void aDecryptedPacketWhoseSourceIsNotAmongThePeersAllowedIpsIsDropped() {
        connect("10.9.0.0/16");
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.forward().getLast().node()).isEqualTo(G2);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r)
                .contains("drops a packet from peer c1/g1").contains("inner source 10.1.0.5 is not in its allowed IPs [10.9.0.0/16]"));
        assertThat(steps(path.forward(), Step.Decap.class)).isEmpty();
    }

    @Test
    void aDestinationNoPeerAllowsIsUnreachable() {
        connect("10.1.0.0/16");
        wan.g1.route("table 100 10.3.0.0/16 dev wg0 src 10.1.0.1");
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.3.0.7", 80)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("wg0: no peer's allowed IPs hold 10.3.0.7"));
    }

    @Test
    void aSenderWhoseKeyIsNoPeerOfTheReceiverFailsTheHandshake() {
        wan.g1.route("table 100 10.2.0.0/16 dev wg0 src 10.1.0.1")
                .wireGuard(new WireGuardDevice("wg0", 51820, "k1", 1420, List.of(peer("c2/g2", "k2", "198.51.100.2", 51821, "10.2.0.0/16"))));
        wan.g2.wireGuard(new WireGuardDevice("wg0", 51821, "k2", 1420, List.of(peer("c3/g3", "k3", "198.51.100.3", 51820, "10.1.0.0/16"))));
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("has no peer with key k1"));
    }

    @Test
    void endsThatHoldDifferentPresharedKeysFailTheHandshake() {
        wan.g1.route("table 100 10.2.0.0/16 dev wg0 src 10.1.0.1")
                .wireGuard(new WireGuardDevice("wg0", 51820, "k1", 1420, List.of(peer("c2/g2", "k2", "psk-a", "198.51.100.2", 51821, "10.2.0.0/16"))));
        wan.g2.route("table 100 10.1.0.0/16 dev wg0 src 10.2.0.1")
                .wireGuard(new WireGuardDevice("wg0", 51821, "k2", 1420, List.of(peer("c1/g1", "k1", "psk-b", "198.51.100.1", 51820, "10.1.0.0/16"))));
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r)
                .contains("holds preshared key psk-b for peer c1/g1, which sent with psk-a: the handshake from 198.51.100.1 fails"));
    }
}
