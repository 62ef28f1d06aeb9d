package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code plan --node} shows the whole gateway: its WireGuard device with every peer, and its
 * Libreswan connections, in text and in JSON, naming the keys and never holding key material.
 */
class PlanShowsTheEncryptedCablesWithKeysByName {

    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A WireGuard key or a generated PSK as wg prints them: 32 bytes in base64. */
    private static final String KEY_MATERIAL = "(?s).*[A-Za-z0-9+/]{43}=.*";

    @Test
    void aWireGuardGatewayShowsItsDeviceWithPeersEndpointsAllowedIpsAndKeepalive() throws Exception {
        String file = EXAMPLES.resolve("on-premise-vxlan-cloud-wireguard.yaml").toString();
        PeriscopeRun text = PeriscopeRun.of("plan", file, "--node", "cloud/cloud-gw");

        assertThat(text.status()).isZero();
        assertThat(text.out()).contains("""
                # wg setconf submariner (keys by name; the agent generates them and never prints them)
                [Interface]
                PrivateKey = <private key of wireguard/cloud/cloud-gw>
                ListenPort = 4500

                # onprem1/onprem1-gw
                [Peer]
                PublicKey = <public key of wireguard/onprem1/onprem1-gw>
                PresharedKey = <preshared key submariner-psk>
                Endpoint = 172.31.21.2:4501
                AllowedIPs = 100.21.0.0/16, 10.21.0.0/16
                PersistentKeepalive = 10
                """, "# ip link set submariner mtu 1420 up\n")
                .doesNotMatch(KEY_MATERIAL);

        JsonNode node = JSON.readTree(PeriscopeRun.of("plan", file, "--node", "cloud/cloud-gw", "--json").out()).get("nodes").get(0);
        JsonNode device = node.get("wireGuard").get(0);
        assertThat(device.get("device").asText()).isEqualTo("submariner");
        assertThat(device.get("privateKeyId").asText()).isEqualTo("wireguard/cloud/cloud-gw");
        List<String> peers = new ArrayList<>();
        device.get("peers").forEach(p -> peers.add(p.get("remote").asText() + " " + p.get("endpoint").asText() + " "
                + p.get("allowedIps") + " " + p.get("persistentKeepaliveSeconds").asInt()));
        assertThat(peers).containsExactly("onprem1/onprem1-gw 172.31.21.2:4501 [\"100.21.0.0/16\",\"10.21.0.0/16\"] 10",
                "onprem2/onprem2-gw 172.31.22.2:4501 [\"100.22.0.0/16\",\"10.22.0.0/16\"] 10");
        assertThat(node.has("libreswan")).as("no Libreswan cable on this gateway").isFalse();
    }

    @Test
    void anOnPremiseGatewayReachesTheCloudGatewayAtItsPublicAddress() throws Exception {
        String file = EXAMPLES.resolve("on-premise-vxlan-cloud-wireguard.yaml").toString();
        JsonNode device = JSON.readTree(PeriscopeRun.of("plan", file, "--node", "onprem1/onprem1-gw", "--json").out())
                .get("nodes").get(0).get("wireGuard").get(0);

        assertThat(device.get("peers")).hasSize(1);
        assertThat(device.get("peers").get(0).get("endpoint").asText()).startsWith("203.0.113.23:");
    }

    @Test
    void aLibreswanGatewayShowsItsConnectionsWithThePreSharedKeyByName() throws Exception {
        String file = EXAMPLES.resolve("client-server.yaml").toString();
        PeriscopeRun text = PeriscopeRun.of("plan", file, "--node", "server/server-gw");

        assertThat(text.status()).isZero();
        assertThat(text.out()).contains("""
                conn submariner-cable-client1-172-30-11-2-1-1
                \tauto=start
                \ttype=tunnel
                \tauthby=secret
                \tleft=172.30.10.2
                \tleftid=172.30.10.2
                \tleftsubnet=10.10.0.0/16
                \tleftikeport=4500
                \tright=172.30.11.2
                \trightid=172.30.11.2
                \trightsubnet=10.11.0.0/16
                \trightikeport=4500
                \t# ESP (IP protocol 50): no NAT between the endpoints (neither gateway has a publicIP other than its ip) and forceUDPEncapsulation is not set
                \tencapsulation=auto
                """, "# ipsec.secrets: %any %any : PSK <pre-shared key submariner-psk>\n")
                .doesNotContain("[Interface]")
                .doesNotMatch(KEY_MATERIAL);

        JsonNode node = JSON.readTree(PeriscopeRun.of("plan", file, "--node", "server/server-gw", "--json").out()).get("nodes").get(0);
        List<String> connections = new ArrayList<>();
        node.get("libreswan").forEach(c -> connections.add(c.get("leftSubnet").asText() + " -> " + c.get("rightSubnet").asText()
                + " via " + c.get("right").asText() + " psk " + c.get("pskId").asText() + " forceencaps " + c.get("forceEncapsulation").asBoolean()));
        assertThat(connections).contains("10.10.0.0/16 -> 10.11.0.0/16 via 172.30.11.2 psk submariner-psk forceencaps false",
                "10.10.0.0/16 -> 10.12.0.0/16 via 172.30.12.2 psk submariner-psk forceencaps false");
        assertThat(node.get("libreswan").get(0).get("encapsulation").asText()).startsWith("ESP (IP protocol 50): no NAT");
        assertThat(node.has("wireGuard")).isFalse();
    }

    @Test
    void aNodeThatIsNoGatewayHasNoCables() throws Exception {
        JsonNode node = JSON.readTree(PeriscopeRun.of("plan", EXAMPLES.resolve("client-server.yaml").toString(), "--node",
                "server/server-worker", "--json").out()).get("nodes").get(0);

        assertThat(node.has("libreswan")).isFalse();
        assertThat(node.has("wireGuard")).isFalse();
        assertThat(node.get("commands")).isNotEmpty();
    }
}
