package io.periscope.plan.cable;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.List;
import java.util.Optional;

/**
 * One peer of a {@link WireGuardDevice}: a remote gateway, named by the id of its key pair (the
 * device uses the public half; the plan never holds key material), where to send to, and which inner
 * addresses belong to it. Allowed IPs work both ways: a packet routed into the device goes to the
 * peer whose allowed IPs hold its destination (longest prefix), and a packet decrypted from the peer
 * is kept only when its source is among them.
 *
 * @param remote                      the remote gateway as {@code cluster/node}, for people
 * @param publicKey                   the id of the remote gateway's key pair
 * @param presharedKey                the id of the preshared key both ends mix into the handshake
 *                                    (upstream's: one for the cluster set, derived from its PSK)
 * @param persistentKeepaliveSeconds  upstream's 10 s keepalive
 */
public record WireGuardPeer(String remote, String publicKey, String presharedKey, Ipv4Address endpointAddress, int endpointPort,
                            List<Ipv4Prefix> allowedIps, int persistentKeepaliveSeconds) {

    public WireGuardPeer {
        allowedIps = List.copyOf(allowedIps);
    }

    /** The longest allowed IP holding {@code address}, if any. */
    public Optional<Ipv4Prefix> allowedIpFor(Ipv4Address address) {
        Ipv4Prefix best = null;
        for (Ipv4Prefix prefix : allowedIps) {
            if (prefix.contains(address) && (best == null || prefix.length() > best.length())) {
                best = prefix;
            }
        }
        return Optional.ofNullable(best);
    }

    /** {@code ip:port} as {@code wg show} prints an endpoint. */
    public String endpoint() {
        return endpointAddress + ":" + endpointPort;
    }
}
