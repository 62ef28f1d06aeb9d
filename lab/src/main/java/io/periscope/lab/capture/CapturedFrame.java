package io.periscope.lab.capture;

import io.periscope.plan.link.MacAddress;

import java.util.Optional;

/**
 * An Ethernet frame carrying IPv4. Where it is a VXLAN packet, {@code vxlan} holds the VNI and the
 * frame inside; {@code datagram} is then the outer UDP packet.
 */
public record CapturedFrame(MacAddress srcMac, MacAddress dstMac, IpDatagram datagram, Optional<Vxlan> vxlan) {

    public record Vxlan(int vni, CapturedFrame inner) {
    }

    /** The packet a host routes: the inner one of a VXLAN frame, else this frame's. */
    public IpDatagram innermost() {
        return vxlan.map(v -> v.inner().innermost()).orElse(datagram);
    }
}
