package io.periscope.lab.wireguard;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.lab.state.WireGuardProcess;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The counters of a WireGuard device as {@code wg show} and {@code ip -s -j link} print them (the
 * text below is theirs, from a gateway of a lab), read without the private or preshared keys that
 * {@code wg show dump} would print.
 */
class WireGuardCountersReadWhatWgShowPrints {

    private static final String GW0 = "hJ1xj5WAbnDaTQ0cCs9YyIzM8BJzxOeTqdYwHhHPKUw=";
    private static final String GW1 = "qD1/7TtEqkJ6xwyCRGcuvpUaU2m2sW2Ys0h5A0M2aG0=";

    private static final String ENDPOINTS = GW0 + "\t172.18.0.2:4500\n" + GW1 + "\t172.18.0.3:4500\n";
    private static final String ALLOWED_IPS = GW0 + "\t242.0.0.0/24 242.0.0.1/32 242.0.0.2/32\n" + GW1 + "\t242.0.0.3/32 242.0.0.4/32\n";
    private static final String TRANSFER = GW0 + "\t1184\t1332\n" + GW1 + "\t2368\t444\n";
    private static final String LINK = """
            [{"ifindex":7,"ifname":"submariner","flags":["POINTOPOINT","MULTICAST","NOARP","UP","LOWER_UP"],"mtu":1420,\
            "qdisc":"fq_codel","operstate":"UNKNOWN","linkmode":"DEFAULT","group":"default","txqlen":500,"link_type":"none",\
            "stats64":{"rx":{"bytes":0,"packets":0,"errors":0,"dropped":0,"over_errors":0,"multicast":0},\
            "tx":{"bytes":1220,"packets":14,"errors":0,"dropped":0,"carrier_errors":0,"collisions":0}}}]
            """;

    @Test
    void eachPeerHasItsEndpointAllowedIpsAndReceivedBytes() {
        WireGuardCounters counters = WireGuardCounters.parse(ENDPOINTS, ALLOWED_IPS, TRANSFER, LINK);

        assertThat(counters.receiveErrors()).isZero();
        assertThat(counters.peerAt("172.18.0.3:4500")).hasValueSatisfying(peer -> {
            assertThat(peer.publicKey()).isEqualTo(GW1);
            assertThat(peer.allowedIps()).containsExactly(Ipv4Prefix.parse("242.0.0.3/32"), Ipv4Prefix.parse("242.0.0.4/32"));
            assertThat(peer.receivedBytes()).isEqualTo(2368);
        });
        assertThat(counters.peerAt("172.18.0.2:4500").map(WireGuardCounters.Peer::receivedBytes)).contains(1184L);
        assertThat(counters.peerAt("172.18.0.9:4500")).isEmpty();
    }

    @Test
    void aPeerWithoutEndpointOrAllowedIpsHasNone() {
        WireGuardCounters counters = WireGuardCounters.parse(GW1 + "\t(none)\n", GW1 + "\t(none)\n", GW1 + "\t0\t0\n", LINK);

        assertThat(counters.peers()).singleElement().satisfies(peer -> {
            assertThat(peer.endpoint()).isEmpty();
            assertThat(peer.allowedIps()).isEmpty();
        });
    }

    @Test
    void textThatIsNotWgsIsRefused() {
        assertThatThrownBy(() -> WireGuardCounters.parse(ENDPOINTS, ALLOWED_IPS, "interface: submariner\n", LINK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("interface: submariner");
        assertThatThrownBy(() -> WireGuardCounters.parse(ENDPOINTS, ALLOWED_IPS, TRANSFER, "[{\"ifname\":\"submariner\"}]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no rx errors");
    }

    @Test
    void theReaderAsksTheDaemonsMountNamespaceForThePublicListingsOnly() {
        RecordingCommandRunner runner = new RecordingCommandRunner()
                .answer(List.of("nsenter", "-t", "4321", "-m", "-n", "wg", "show", "submariner", "endpoints"), ENDPOINTS)
                .answer(List.of("nsenter", "-t", "4321", "-m", "-n", "wg", "show", "submariner", "allowed-ips"), ALLOWED_IPS)
                .answer(List.of("nsenter", "-t", "4321", "-m", "-n", "wg", "show", "submariner", "transfer"), TRANSFER)
                .answer(List.of("ip", "-n", "psc-c1-gw1", "-s", "-j", "link", "show", "dev", "submariner"), LINK);

        Optional<WireGuardCounters> counters = new WireGuardCounterReader(runner).read(new WireGuardProcess("psc-c1-gw1", 4321), "submariner");

        assertThat(counters.flatMap(c -> c.peerAt("172.18.0.3:4500")).map(WireGuardCounters.Peer::receivedBytes)).contains(2368L);
        assertThat(runner.commands()).extracting(Command::argv).noneMatch(argv -> argv.contains("dump") || argv.contains("private-key")
                || argv.contains("preshared-keys"));
    }

    @Test
    void aDaemonThatIsGoneGivesNoCounters() {
        RecordingCommandRunner runner = new RecordingCommandRunner()
                .fail(List.of("nsenter"), "nsenter: cannot open /proc/4321/ns/mnt: No such file or directory");

        assertThat(new WireGuardCounterReader(runner).read(new WireGuardProcess("psc-c1-gw1", 4321), "submariner")).isEmpty();
    }
}
