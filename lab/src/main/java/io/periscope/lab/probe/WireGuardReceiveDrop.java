package io.periscope.lab.probe;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.HostId;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;

import java.util.List;
import java.util.Optional;

/**
 * Why a WireGuard device let nothing out of a packet that reached it: the outer packet was captured
 * arriving on the receiving gateway's underlay, and no probe packet came out of the device after it.
 * WireGuard says nothing on the wire when it drops, so its counters over the round
 * ({@link WireGuardReceipts}) tell what happened: bytes received from the peer (wireguard-go) or a
 * receive error of the device (in-kernel WireGuard) mean it decrypted the packet and then refused
 * it, which for a packet from a known peer is the check of the inner source against that peer's
 * allowed IPs; no bytes for what arrived mean it never decrypted it.
 */
sealed interface WireGuardReceiveDrop {

    /** The text a path's {@code reason} carries, in the simulator's words where it has them. */
    String reason();

    /** The device decrypted the packet and dropped it: its inner source is not among the sending peer's allowed IPs. */
    record SourceNotAllowed(String device, String peer, Ipv4Address source, List<Ipv4Prefix> allowedIps, String counted)
            implements WireGuardReceiveDrop {
        @Override
        public String reason() {
            return device + " drops a packet from peer " + peer + ": inner source " + source + " is not in its allowed IPs " + allowedIps
                    + " (" + counted + ", and nothing came out of the device)";
        }
    }

    /** The device decrypted the packet and let nothing out, although the peer's allowed IPs hold its source. */
    record DecryptedAndKept(String device, String peer, Ipv4Address source, String counted) implements WireGuardReceiveDrop {
        @Override
        public String reason() {
            return device + " let nothing out of a packet from peer " + peer + " (" + counted + "), although its inner source " + source
                    + " is in the peer's allowed IPs";
        }
    }

    /** The device counted less than arrived from the peer: it did not decrypt the packet (no session with the sender's key). */
    record NotDecrypted(String device, String peer, long arrivedBytes, long receivedBytes) implements WireGuardReceiveDrop {
        @Override
        public String reason() {
            return device + " did not decrypt a packet from peer " + peer + ": " + arrivedBytes + " bytes arrived from it and the peer's"
                    + " received bytes grew by " + receivedBytes + " (no session with the sender's key)";
        }
    }

    /** The device has no peer at the address the packet came from, so no key to decrypt it with. */
    record UnknownPeer(String device, String endpoint) implements WireGuardReceiveDrop {
        @Override
        public String reason() {
            return device + " has no peer at " + endpoint + ": nothing came out of the device for the packet that arrived from there";
        }
    }

    /**
     * The counters were not read (the daemon gone): the drop is placed, and the configuration the
     * lab gave the device says what it would have checked.
     */
    record Uncounted(String device, String peer, Optional<String> plannedCheck) implements WireGuardReceiveDrop {
        @Override
        public String reason() {
            return device + " let nothing out of a packet from peer " + peer + " (its counters could not be read)"
                    + plannedCheck.map(c -> "; " + c).orElse("");
        }
    }

    /**
     * @param receiver     the gateway the outer packet arrived at
     * @param device       that gateway's device listening on the outer packet's destination port
     * @param endpoint     where the outer packet came from, {@code address:port} as it arrived
     * @param source       the inner packet's source as it went into the sender's device
     * @param arrivedBytes the WireGuard data messages' bytes captured arriving from {@code endpoint} at the
     *                     receiver over the round (what a device that decrypted them all adds to the peer)
     */
    static WireGuardReceiveDrop judge(HostId receiver, WireGuardDevice device, String endpoint, Ipv4Address source, long arrivedBytes,
                                      WireGuardReceipts receipts) {
        String named = receiver + " " + device.name();
        Optional<WireGuardPeer> planned = device.peers().stream().filter(p -> p.endpoint().equals(endpoint)).findFirst();
        String peer = planned.map(p -> p.remote() + " (" + endpoint + ")").orElse(endpoint);
        if (!receipts.read(receiver)) {
            return new Uncounted(named, peer, planned.map(p -> p.allowedIpFor(source).isPresent()
                    ? "its inner source " + source + " is in the peer's allowed IPs " + p.allowedIps()
                    : "its inner source " + source + " is not in the peer's allowed IPs " + p.allowedIps()));
        }
        Optional<WireGuardReceipts.PeerReceipt> receipt = receipts.from(receiver, endpoint);
        if (receipt.isEmpty()) {
            return new UnknownPeer(named, endpoint);
        }
        WireGuardReceipts.PeerReceipt counted = receipt.get();
        String evidence;
        if (counted.receiveErrors() > 0) {
            evidence = "the device counted " + counted.receiveErrors() + " receive error" + (counted.receiveErrors() == 1 ? "" : "s");
        } else if (arrivedBytes > 0 && counted.receivedBytes() >= arrivedBytes) {
            evidence = "decrypted: the peer's received bytes grew by " + counted.receivedBytes() + " for the " + arrivedBytes
                    + " bytes that arrived from it";
        } else {
            return new NotDecrypted(named, peer, arrivedBytes, counted.receivedBytes());
        }
        boolean allowed = counted.allowedIps().stream().anyMatch(p -> p.contains(source));
        return allowed ? new DecryptedAndKept(named, peer, source, evidence)
                : new SourceNotAllowed(named, peer, source, counted.allowedIps(), evidence);
    }
}
