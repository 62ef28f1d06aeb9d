package io.periscope.dataplane.wireguard;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WireGuardConfRendererWritesWhatWgSetconfReads {

    private static final WireGuardDevice DEVICE = new WireGuardDevice("submariner", 4501, "east/gw", WireGuardDevice.DEFAULT_MTU, List.of(
            new WireGuardPeer("west/gw", "west/gw", "clusterset-psk", Ipv4Address.parse("198.51.100.2"), 4501,
                    List.of(Ipv4Prefix.parse("10.2.0.0/16"), Ipv4Prefix.parse("100.2.0.0/16")), 10)));

    @Test
    void theInterfaceThenOnePeerSectionPerRemoteGatewayWithTheKeysByName() {
        assertThat(WireGuardConfRenderer.render(DEVICE, WireGuardConfRenderer.WireGuardKeys.NAMED)).isEqualTo("""
                [Interface]
                PrivateKey = <private key of east/gw>
                ListenPort = 4501

                # west/gw
                [Peer]
                PublicKey = <public key of west/gw>
                PresharedKey = <preshared key clusterset-psk>
                Endpoint = 198.51.100.2:4501
                AllowedIPs = 10.2.0.0/16, 100.2.0.0/16
                PersistentKeepalive = 10
                """);
    }

    @Test
    void realKeysComeFromTheCallerById() {
        WireGuardConfRenderer.WireGuardKeys keys = new WireGuardConfRenderer.WireGuardKeys(id -> "PRIV(" + id + ")", id -> "PUB(" + id + ")",
                id -> "PSK(" + id + ")");
        assertThat(WireGuardConfRenderer.render(DEVICE, keys))
                .contains("PrivateKey = PRIV(east/gw)\n", "PublicKey = PUB(west/gw)\n", "PresharedKey = PSK(clusterset-psk)\n");
    }
}
