package io.periscope.plan.cable;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WireGuardDeviceChoosesPeersByLongestAllowedIp {

    private static WireGuardPeer peer(String remote, String key, String... allowed) {
        return new WireGuardPeer(remote, key, "psk", Ipv4Address.parse("198.51.100.2"), 4500,
                List.of(allowed).stream().map(Ipv4Prefix::parse).toList(), 10);
    }

    @Test
    void aMoreSpecificPrefixOnAnotherPeerWins() {
        WireGuardDevice device = new WireGuardDevice("submariner", 4500, "k", 1420, List.of(
                peer("c2/a", "ka", "10.2.0.0/16"), peer("c2/b", "kb", "10.2.0.9/32")));
        assertThat(device.peerFor(Ipv4Address.parse("10.2.0.9")).orElseThrow().remote()).isEqualTo("c2/b");
        assertThat(device.peerFor(Ipv4Address.parse("10.2.0.8")).orElseThrow().remote()).isEqualTo("c2/a");
        assertThat(device.peerFor(Ipv4Address.parse("10.3.0.8"))).isEmpty();
    }

    @Test
    void theSamePrefixOnTwoPeersBelongsToTheOneConfiguredLast() {
        WireGuardDevice device = new WireGuardDevice("submariner", 4500, "k", 1420, List.of(
                peer("c2/a", "ka", "10.2.0.0/16"), peer("c2/b", "kb", "10.2.0.0/16")));
        assertThat(device.peerFor(Ipv4Address.parse("10.2.0.1")).orElseThrow().remote()).isEqualTo("c2/b");
    }

    @Test
    void peersAreFoundByTheIdOfTheirKeyPair() {
        WireGuardDevice device = new WireGuardDevice("submariner", 4500, "k", 1420, List.of(peer("c2/a", "ka", "10.2.0.0/16")));
        assertThat(device.peerWithKey("ka")).map(WireGuardPeer::remote).contains("c2/a");
        assertThat(device.peerWithKey("kb")).isEmpty();
    }
}
