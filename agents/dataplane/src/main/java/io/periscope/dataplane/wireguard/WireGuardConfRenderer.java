package io.periscope.dataplane.wireguard;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;

import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A gateway's WireGuard device as the configuration {@code wg setconf DEVICE FILE} reads (wg(8),
 * "CONFIGURATION FILE FORMAT"): the interface's private key and listen port, then one {@code [Peer]}
 * per remote gateway with its public key, preshared key, endpoint, allowed IPs and keepalive, which is
 * what upstream's wireguard driver gives the device through wgctrl. The plan names keys by id only;
 * {@link WireGuardKeys} turns an id into what is written, real keys for whoever builds the device,
 * {@link WireGuardKeys#NAMED} for people. MTU and link state are not part of this format
 * ({@code ip link} sets them). Pure text: running {@code wg} is the caller's side effect.
 */
public final class WireGuardConfRenderer {

    private WireGuardConfRenderer() {
    }

    public static String render(WireGuardDevice device, WireGuardKeys keys) {
        StringBuilder text = new StringBuilder("[Interface]\n");
        text.append("PrivateKey = ").append(keys.privateKey().apply(device.privateKey())).append('\n');
        text.append("ListenPort = ").append(device.listenPort()).append('\n');
        for (WireGuardPeer peer : device.peers()) {
            text.append("\n# ").append(peer.remote()).append('\n');
            text.append("[Peer]\n");
            text.append("PublicKey = ").append(keys.publicKey().apply(peer.publicKey())).append('\n');
            text.append("PresharedKey = ").append(keys.presharedKey().apply(peer.presharedKey())).append('\n');
            text.append("Endpoint = ").append(peer.endpoint()).append('\n');
            text.append("AllowedIPs = ").append(peer.allowedIps().stream().map(Ipv4Prefix::toString).collect(Collectors.joining(", "))).append('\n');
            text.append("PersistentKeepalive = ").append(peer.persistentKeepaliveSeconds()).append('\n');
        }
        return text.toString();
    }

    /** What stands in the configuration for each key id of the plan: the private half, the public half, the preshared key. */
    public record WireGuardKeys(Function<String, String> privateKey, Function<String, String> publicKey,
                                Function<String, String> presharedKey) {

        /** Key ids in angle brackets, for people: the plan shows which key goes where, never a key. */
        public static final WireGuardKeys NAMED = new WireGuardKeys(id -> "<private key of " + id + ">",
                id -> "<public key of " + id + ">", id -> "<preshared key " + id + ">");
    }
}
