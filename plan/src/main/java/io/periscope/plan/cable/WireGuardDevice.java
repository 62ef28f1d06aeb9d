package io.periscope.plan.cable;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.List;
import java.util.Optional;

/**
 * The WireGuard cable driver's device on a gateway ({@code submariner}, as upstream names it): a layer-3
 * device without an address of its own (routes give the source), listening on one UDP port for every
 * peer. The plan names the device's key pair by id ({@code privateKey}); whoever builds the device
 * (the lab, an agent) generates the keys and never shows them.
 *
 * @param privateKey the id of this gateway's key pair; peers name the same id as its public key
 */
public record WireGuardDevice(String name, int listenPort, String privateKey, int mtu, List<WireGuardPeer> peers) {

    /** The kernel's default MTU for a WireGuard device: 1500 minus 80 bytes of IPv6 + UDP + WireGuard headers. */
    public static final int DEFAULT_MTU = 1420;

    public WireGuardDevice {
        peers = List.copyOf(peers);
    }

    /**
     * The peer a packet to {@code destination} is encrypted for: WireGuard's cryptokey routing, the
     * longest allowed IP holding the destination. Should two peers list the same prefix, the one
     * configured last holds it, as {@code wg set} moves a prefix to the peer it is given to last.
     */
    public Optional<WireGuardPeer> peerFor(Ipv4Address destination) {
        WireGuardPeer best = null;
        int bestLength = -1;
        for (WireGuardPeer peer : peers) {
            Optional<Ipv4Prefix> prefix = peer.allowedIpFor(destination);
            if (prefix.isPresent() && prefix.get().length() >= bestLength) {
                best = peer;
                bestLength = prefix.get().length();
            }
        }
        return Optional.ofNullable(best);
    }

    /** The peer whose key pair has id {@code publicKey}. */
    public Optional<WireGuardPeer> peerWithKey(String publicKey) {
        return peers.stream().filter(p -> p.publicKey().equals(publicKey)).findFirst();
    }
}
