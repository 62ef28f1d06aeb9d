package io.periscope.lab.wireguard;

import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.WireGuardProcess;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.model.net.Ipv4Prefix;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Builds the WireGuard devices the plan gives gateways, before the agents route into them. This
 * kernel has no WireGuard module, so each device is {@code wireguard-go} (WireGuard in user space
 * over a {@code tun} device) started inside the gateway's namespace and configured with {@code wg}.
 *
 * <p>{@code wireguard-go} and {@code wg} meet on a control socket in {@code /var/run/wireguard}
 * named after the device; every gateway's device is called {@code submariner}, so each gateway gets
 * a private tmpfs there, mounted in the mount namespace {@code ip netns exec} makes for the script.
 * Key pairs are generated per lab, one per key id of the plan, and so are preshared keys ({@code wg
 * genpsk}), one per preshared-key id; a private key reaches {@code wg} only through a here-document
 * on the script's standard input, which no message ever prints, and a preshared key through a file in
 * the gateway's private tmpfs (mode 0700), removed as soon as {@code wg} has read it.
 */
public final class WireGuardGateways {

    private static final String CONTROL_DIRECTORY = "/var/run/wireguard";

    private final CommandRunner runner;

    public WireGuardGateways(CommandRunner runner) {
        this.runner = runner;
    }

    /** The gateways of {@code hosts} that have a WireGuard device, in order. */
    public static List<HostNamespace> withDevices(List<HostNamespace> hosts) {
        return hosts.stream().filter(h -> !h.plan().submariner().wireGuardDevices().isEmpty()).toList();
    }

    /**
     * Starts and configures every WireGuard device of {@code hosts}.
     *
     * @param started told of each {@code wireguard-go} as soon as its pid is known, even if its
     *                configuration then fails, so that it is stopped again
     * @return the number of devices built
     */
    public int start(List<HostNamespace> hosts, Consumer<WireGuardProcess> started) {
        List<HostNamespace> gateways = withDevices(hosts);
        Map<String, WireGuardKeyPair> keys = generateKeys(gateways);
        Map<String, WireGuardPresharedKey> presharedKeys = generatePresharedKeys(gateways);
        int devices = 0;
        for (HostNamespace gateway : gateways) {
            for (WireGuardDevice device : gateway.plan().submariner().wireGuardDevices()) {
                startDevice(gateway, device, keys, presharedKeys, started);
                devices++;
            }
        }
        return devices;
    }

    private Map<String, WireGuardKeyPair> generateKeys(List<HostNamespace> gateways) {
        Map<String, WireGuardKeyPair> keys = new LinkedHashMap<>();
        for (HostNamespace gateway : gateways) {
            for (WireGuardDevice device : gateway.plan().submariner().wireGuardDevices()) {
                keys.computeIfAbsent(device.privateKey(), id -> {
                    String privateKey = runner.run(Command.of("wg", "genkey")).stdout().strip();
                    String publicKey = runner.run(Command.of("wg", "pubkey").withStdin(privateKey + "\n")).stdout().strip();
                    return new WireGuardKeyPair(privateKey, publicKey);
                });
            }
        }
        return keys;
    }

    /** One key per preshared-key id of the plan: both ends of a cable must hold the same. */
    private Map<String, WireGuardPresharedKey> generatePresharedKeys(List<HostNamespace> gateways) {
        Map<String, WireGuardPresharedKey> keys = new LinkedHashMap<>();
        for (HostNamespace gateway : gateways) {
            for (WireGuardDevice device : gateway.plan().submariner().wireGuardDevices()) {
                for (WireGuardPeer peer : device.peers()) {
                    keys.computeIfAbsent(peer.presharedKey(), id -> new WireGuardPresharedKey(runner.run(Command.of("wg", "genpsk")).stdout().strip()));
                }
            }
        }
        return keys;
    }

    private void startDevice(HostNamespace gateway, WireGuardDevice device, Map<String, WireGuardKeyPair> keys,
                             Map<String, WireGuardPresharedKey> presharedKeys, Consumer<WireGuardProcess> started) {
        Command invocation = Command.of("sh", "-s").inNamespace(gateway.namespace())
                .withStdin(script(device, keys, presharedKeys));
        CommandResult result = runner.execute(invocation);
        String firstLine = result.stdout().lines().findFirst().orElse("").strip();
        if (firstLine.matches("\\d+")) {
            started.accept(new WireGuardProcess(gateway.namespace(), Long.parseLong(firstLine)));
        }
        if (!result.succeeded()) {
            throw new CommandFailedException(invocation, new CommandResult(result.exitCode(), "",
                    "building WireGuard device " + device.name() + " on " + gateway.host() + ": " + result.stderr().strip()));
        }
    }

    private static String pskFile(int index) {
        return CONTROL_DIRECTORY + "/psk-" + index;
    }

    static String script(WireGuardDevice device, Map<String, WireGuardKeyPair> keys, Map<String, WireGuardPresharedKey> presharedKeys) {
        String socket = CONTROL_DIRECTORY + "/" + device.name() + ".sock";
        StringBuilder wgSet = new StringBuilder("wg set ").append(device.name())
                .append(" listen-port ").append(device.listenPort()).append(" private-key /dev/fd/3");
        // wg reads a preshared key from a file per peer; one file per id, in the private tmpfs.
        List<String> pskIds = device.peers().stream().map(WireGuardPeer::presharedKey).distinct().toList();
        // The keys travel as here-document data ("<index> <key>" a line), never as arguments.
        List<String> pskLines = new java.util.ArrayList<>();
        for (int i = 0; i < pskIds.size(); i++) {
            pskLines.add(i + " " + presharedKeys.get(pskIds.get(i)).key());
        }
        for (WireGuardPeer peer : device.peers()) {
            WireGuardKeyPair remote = keys.get(peer.publicKey());
            if (remote == null) {
                throw new IllegalStateException("WireGuard peer " + peer.remote() + " has key id " + peer.publicKey()
                        + ", which no gateway of the plan holds");
            }
            wgSet.append(" peer ").append(remote.publicKey())
                    .append(" preshared-key ").append(pskFile(pskIds.indexOf(peer.presharedKey())))
                    .append(" endpoint ").append(peer.endpoint());
            // A peer may hold no prefix (a remote cluster's second active gateway without Globalnet:
            // its subnets belong to the first one's peer). It still gets a session, and every packet
            // it sends is dropped by the allowed-IPs check, as the simulator says; an empty
            // "allowed-ips" would make wg read the next word as the list and refuse the command.
            if (!peer.allowedIps().isEmpty()) {
                wgSet.append(" allowed-ips ").append(peer.allowedIps().stream().map(Ipv4Prefix::toString).collect(Collectors.joining(",")));
            }
            wgSet.append(" persistent-keepalive ").append(peer.persistentKeepaliveSeconds());
        }
        return String.join("\n",
                "set -e",
                "mkdir -p " + CONTROL_DIRECTORY,
                "mount -t tmpfs -o mode=0700 periscope-wireguard " + CONTROL_DIRECTORY,
                // setsid: the daemon leaves the lab's process group, so a Ctrl-C meant for the lab
                // does not kill it before the cleanup has recorded and stopped it.
                "WG_PROCESS_FOREGROUND=1 setsid wireguard-go " + device.name() + " </dev/null >/dev/null 2>&1 &",
                "echo $!",
                "tries=0",
                "while [ ! -S " + socket + " ]; do",
                "  tries=$((tries + 1))",
                "  if [ $tries -gt 200 ]; then echo 'wireguard-go did not open " + socket + " within 10 s' >&2; exit 1; fi",
                "  sleep 0.05",
                "done",
                "trap 'rm -f " + CONTROL_DIRECTORY + "/psk-*' EXIT",
                "(umask 077; while read -r index key; do echo \"$key\" > " + CONTROL_DIRECTORY + "/psk-$index; done) <<'PERISCOPE_PSK'",
                String.join("\n", pskLines),
                "PERISCOPE_PSK",
                wgSet + " 3<<'PERISCOPE_KEY'",
                keys.get(device.privateKey()).privateKey(),
                "PERISCOPE_KEY",
                "ip link set " + device.name() + " mtu " + device.mtu() + " up",
                "");
    }
}
