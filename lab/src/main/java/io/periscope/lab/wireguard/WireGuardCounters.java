package io.periscope.lab.wireguard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.net.Ipv4Prefix;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one WireGuard device counted, as {@code wg show DEVICE endpoints|allowed-ips|transfer} and
 * {@code ip -s link show} print it: per peer, where it last heard from the peer, the allowed IPs and
 * the bytes received from it; for the device, its receive errors.
 *
 * <p>The two implementations count a packet dropped by the allowed-IPs check differently.
 * wireguard-go, which the lab runs, adds every packet it decrypted to its peer's received bytes and
 * only then checks the inner source against the peer's allowed IPs: such a drop shows as bytes
 * received and nothing out of the device. In-kernel WireGuard adds only delivered packets to the
 * peer's bytes and counts the drop as a receive error (and frame error) of the device.
 *
 * @param receiveErrors the device's {@code rx errors}
 */
public record WireGuardCounters(List<Peer> peers, long receiveErrors) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public WireGuardCounters {
        peers = List.copyOf(peers);
    }

    /**
     * @param publicKey     the peer's public key (public: it identifies the peer, nothing more)
     * @param endpoint      {@code address:port}; empty while the device has none for the peer
     * @param receivedBytes what the device counts received from the peer
     */
    public record Peer(String publicKey, Optional<String> endpoint, List<Ipv4Prefix> allowedIps, long receivedBytes) {

        public Peer {
            allowedIps = List.copyOf(allowedIps);
        }
    }

    /** The peer the device last heard from at {@code endpoint} ({@code address:port}). */
    public Optional<Peer> peerAt(String endpoint) {
        return peers.stream().filter(p -> p.endpoint().equals(Optional.of(endpoint))).findFirst();
    }

    /**
     * Reads the three {@code wg show} listings (a line per peer: its public key, a tab, the value)
     * and {@code ip -s -j link show} of the device.
     *
     * @throws IllegalArgumentException when the text is not what those commands print
     */
    public static WireGuardCounters parse(String endpoints, String allowedIps, String transfer, String linkJson) {
        Map<String, String> endpointOf = byKey(endpoints);
        Map<String, String> allowedOf = byKey(allowedIps);
        Map<String, String> transferOf = byKey(transfer);
        List<Peer> peers = new ArrayList<>();
        for (Map.Entry<String, String> peer : transferOf.entrySet()) {
            String[] counts = peer.getValue().split("\t");
            if (counts.length != 2) {
                throw new IllegalArgumentException("wg show transfer printed '" + peer.getValue() + "' for a peer, not received and sent bytes");
            }
            String endpoint = endpointOf.getOrDefault(peer.getKey(), "(none)");
            List<Ipv4Prefix> allowed = new ArrayList<>();
            String prefixes = allowedOf.getOrDefault(peer.getKey(), "(none)");
            if (!prefixes.equals("(none)")) {
                for (String prefix : prefixes.split(" ")) {
                    allowed.add(Ipv4Prefix.parse(prefix));
                }
            }
            peers.add(new Peer(peer.getKey(), endpoint.equals("(none)") ? Optional.empty() : Optional.of(endpoint), allowed,
                    Long.parseLong(counts[0])));
        }
        return new WireGuardCounters(peers, receiveErrors(linkJson));
    }

    private static Map<String, String> byKey(String listing) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : listing.strip().lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            int tab = line.indexOf('\t');
            if (tab < 0) {
                throw new IllegalArgumentException("wg show printed '" + line + "', not a peer's key and a value");
            }
            values.put(line.substring(0, tab), line.substring(tab + 1).strip());
        }
        return values;
    }

    private static long receiveErrors(String linkJson) {
        JsonNode links;
        try {
            links = JSON.readTree(linkJson);
        } catch (IOException e) {
            throw new IllegalArgumentException("ip printed JSON that cannot be read: " + e.getMessage(), e);
        }
        JsonNode rx = links.path(0).path("stats64").path("rx");
        if (!rx.has("errors")) {
            throw new IllegalArgumentException("ip -s -j link show printed no rx errors: " + linkJson.strip());
        }
        return rx.get("errors").asLong();
    }
}
