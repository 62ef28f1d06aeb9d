package io.periscope.lab.probe;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;

/**
 * What the sending socket experienced for one probe connection.
 *
 * @param sourcePort   the port the socket was bound to (0 for ICMP)
 * @param icmpLength   the IP length of the echo request, which recognises it (0 for TCP and UDP)
 * @param udpMarker    the start of the UDP request's payload, which recognises it
 * @param localAddress the address the socket sent from, where the socket tells it
 * @param disposition  {@code delivered} when the answer came back intact, else {@code dropped},
 *                     {@code no-route} or {@code unreachable} as the socket was told
 * @param problem      what the socket reported when the answer did not come
 */
public record AttemptOutcome(int sourcePort, int icmpLength, String udpMarker, Optional<Ipv4Address> localAddress,
                             String disposition, Optional<String> problem) {
}
