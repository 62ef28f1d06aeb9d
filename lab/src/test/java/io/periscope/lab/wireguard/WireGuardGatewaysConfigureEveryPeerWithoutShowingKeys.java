package io.periscope.lab.wireguard;

import io.periscope.lab.TestTopologies;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.WireGuardProcess;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WireGuardGatewaysConfigureEveryPeerWithoutShowingKeys {

    private final LabLayout layout = LabLayout.of(Planner.plan(LabCables.of(TestTopologies.clientServerOverVxlanAndWireguard()).set()));

    /** {@code wg genkey} answers PRIVATE-n, {@code wg genpsk} PSK-n, {@code wg pubkey} PUBLIC-of-(its input), the device script a pid. */
    private static RecordingCommandRunner runner(int scriptStatus) {
        AtomicInteger keys = new AtomicInteger();
        AtomicInteger pids = new AtomicInteger(4000);
        return new RecordingCommandRunner(invocation -> {
            List<String> argv = invocation.argv();
            if (argv.equals(List.of("wg", "genkey"))) {
                return new CommandResult(0, "PRIVATE-" + keys.incrementAndGet() + "\n", "");
            }
            if (argv.equals(List.of("wg", "genpsk"))) {
                return new CommandResult(0, "PSK-" + keys.incrementAndGet() + "\n", "");
            }
            if (argv.equals(List.of("wg", "pubkey"))) {
                return new CommandResult(0, "PUBLIC-of-" + invocation.stdin().strip() + "\n", "");
            }
            return new CommandResult(scriptStatus, pids.incrementAndGet() + "\n", scriptStatus == 0 ? "" : "wg: Invalid argument");
        });
    }

    @Test
    void eachGatewayGetsItsDeviceWithItsOwnKeyAndEveryPeersPublicKey() {
        RecordingCommandRunner runner = runner(0);
        List<WireGuardProcess> started = new ArrayList<>();

        int devices = new WireGuardGateways(runner).start(layout.nodes(), started::add);

        List<HostNamespace> gateways = WireGuardGateways.withDevices(layout.nodes());
        assertThat(gateways).extracting(h -> h.host().toString()).containsExactlyInAnyOrder("onprem2/onprem2-gw", "cloud/cloud-gw");
        assertThat(devices).isEqualTo(2);
        assertThat(started).extracting(WireGuardProcess::namespace).containsExactlyElementsOf(gateways.stream().map(HostNamespace::namespace).toList());
        List<Command> scripts = runner.commands().stream().filter(i -> i.argv().contains("sh")).toList();
        assertThat(scripts).hasSize(2);
        // Each script hands its own private key to wg and names the other gateway by its public key.
        String first = scripts.get(0).stdin();
        String second = scripts.get(1).stdin();
        assertThat(first).contains("\nPRIVATE-1\n").contains("peer PUBLIC-of-PRIVATE-2 ").doesNotContain("PRIVATE-2\n");
        assertThat(second).contains("\nPRIVATE-2\n").contains("peer PUBLIC-of-PRIVATE-1 ").doesNotContain("PRIVATE-1\n");
        var device = gateways.getFirst().plan().submariner().wireGuardDevices().getFirst();
        var peer = device.peers().getFirst();
        assertThat(first).contains("listen-port " + device.listenPort()).contains("endpoint " + peer.endpoint())
                .contains("persistent-keepalive " + peer.persistentKeepaliveSeconds())
                .contains("ip link set submariner mtu " + device.mtu() + " up");
        assertThat(runner.commands()).allSatisfy(i -> assertThat(String.join(" ", i.argv()) + i).doesNotContain("PRIVATE-"));
    }

    @Test
    void bothEndsOfTheCableGetTheSamePresharedKeyFromAPrivateFileThatIsRemoved() {
        RecordingCommandRunner runner = runner(0);

        new WireGuardGateways(runner).start(layout.nodes(), p -> { });

        // One wg genpsk for the plan's one preshared-key id (upstream's: one for the cluster set).
        assertThat(runner.commands()).filteredOn(i -> i.argv().equals(List.of("wg", "genpsk"))).hasSize(1);
        List<String> scripts = runner.commands().stream().filter(i -> i.argv().contains("sh")).map(Command::stdin).toList();
        assertThat(scripts).hasSize(2).allSatisfy(script -> assertThat(script)
                .contains("(umask 077; while read -r index key; do echo \"$key\" > /var/run/wireguard/psk-$index; done)"
                        + " <<'PERISCOPE_PSK'\n0 PSK-3\nPERISCOPE_PSK\n")
                .contains(" preshared-key /var/run/wireguard/psk-0 endpoint ")
                .contains("trap 'rm -f /var/run/wireguard/psk-*' EXIT"));
        assertThat(runner.commands()).allSatisfy(i -> assertThat(String.join(" ", i.argv()) + i).doesNotContain("PSK-"));
    }

    /**
     * Without Globalnet, a remote cluster's second active gateway has no allowed IP (its subnets are
     * the first one's peer's): wg gets that peer without an "allowed-ips" word, which given an empty
     * list would swallow the next word and refuse the whole command in the middle of lab up.
     */
    @Test
    void aPeerWithoutAllowedIpsIsConfiguredWithoutTheWord() {
        WireGuardPeer first = new WireGuardPeer("east/gw-1", "key-east-1", "psk", Ipv4Address.parse("172.18.1.2"), 4500,
                List.of(Ipv4Prefix.parse("10.1.0.0/16")), 10);
        WireGuardPeer second = new WireGuardPeer("east/gw-2", "key-east-2", "psk", Ipv4Address.parse("172.18.1.3"), 4500, List.of(), 10);
        WireGuardDevice device = new WireGuardDevice("submariner", 4500, "key-west", WireGuardDevice.DEFAULT_MTU, List.of(first, second));
        Map<String, WireGuardKeyPair> keys = Map.of("key-west", new WireGuardKeyPair("PRIVATE-W", "PUBLIC-W"),
                "key-east-1", new WireGuardKeyPair("PRIVATE-E1", "PUBLIC-E1"), "key-east-2", new WireGuardKeyPair("PRIVATE-E2", "PUBLIC-E2"));

        String script = WireGuardGateways.script(device, keys, Map.of("psk", new WireGuardPresharedKey("PSK")));

        assertThat(script).contains("peer PUBLIC-E1 preshared-key /var/run/wireguard/psk-0 endpoint 172.18.1.2:4500 allowed-ips 10.1.0.0/16"
                        + " persistent-keepalive 10")
                .contains("peer PUBLIC-E2 preshared-key /var/run/wireguard/psk-0 endpoint 172.18.1.3:4500 persistent-keepalive 10")
                .doesNotContain("allowed-ips  ").doesNotContain("allowed-ips persistent-keepalive");
    }

    @Test
    void aDeviceThatFailsIsStillRecordedAndItsErrorCarriesNoKey() {
        List<WireGuardProcess> started = new ArrayList<>();

        assertThatThrownBy(() -> new WireGuardGateways(runner(1)).start(layout.nodes(), started::add))
                .isInstanceOf(CommandFailedException.class)
                .hasMessageContaining("building WireGuard device submariner on")
                .hasMessageContaining("wg: Invalid argument")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("PRIVATE-"));
        assertThat(started).extracting(WireGuardProcess::pid).containsExactly(4001L);
    }
}
