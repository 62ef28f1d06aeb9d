package io.periscope.lab.probe;

import io.periscope.lab.wireguard.WireGuardCounters;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.HostId;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the lab's WireGuard devices counted over one round of probes: each gateway's counters read
 * before the round's captures opened and after they closed, so every packet the captures saw
 * arrive falls between the two readings (and a keepalive or two the captures did not see may too).
 */
public record WireGuardReceipts(Map<HostId, WireGuardCounters> before, Map<HostId, WireGuardCounters> after) {

    /** No device was read: the lab has no WireGuard cable, or a test rebuilds hops from captures alone. */
    public static final WireGuardReceipts UNREAD = new WireGuardReceipts(Map.of(), Map.of());

    public WireGuardReceipts {
        before = Map.copyOf(before);
        after = Map.copyOf(after);
    }

    /**
     * What {@code host}'s device counted over the round from the peer it hears at {@code endpoint}.
     *
     * @param allowedIps    the peer's allowed IPs as the device holds them (after the round)
     * @param receivedBytes how much the peer's received bytes grew
     * @param receiveErrors how much the device's receive errors grew
     */
    public record PeerReceipt(List<Ipv4Prefix> allowedIps, long receivedBytes, long receiveErrors) {

        public PeerReceipt {
            allowedIps = List.copyOf(allowedIps);
        }
    }

    /** Whether both readings of {@code host}'s device exist. */
    public boolean read(HostId host) {
        return before.containsKey(host) && after.containsKey(host);
    }

    /**
     * What {@code host}'s device counted from the peer at {@code endpoint} ({@code address:port});
     * empty when the device was not read, or has no peer there. A peer is found by its endpoint after
     * the round: WireGuard moves a peer's endpoint to wherever an authenticated packet came from.
     */
    public Optional<PeerReceipt> from(HostId host, String endpoint) {
        if (!read(host)) {
            return Optional.empty();
        }
        WireGuardCounters then = before.get(host);
        WireGuardCounters now = after.get(host);
        return now.peerAt(endpoint).map(peer -> {
            long earlier = then.peers().stream().filter(p -> p.publicKey().equals(peer.publicKey()))
                    .mapToLong(WireGuardCounters.Peer::receivedBytes).findFirst().orElse(0);
            return new PeerReceipt(peer.allowedIps(), peer.receivedBytes() - earlier, now.receiveErrors() - then.receiveErrors());
        });
    }
}
