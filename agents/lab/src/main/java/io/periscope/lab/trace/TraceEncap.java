package io.periscope.lab.trace;

import io.periscope.model.net.Ipv4Address;

/**
 * A VXLAN encapsulation on the way out of a hop: the tunnel device, the outer addresses, VNI and UDP
 * port, and the underlay interface the outer packet left by.
 */
public record TraceEncap(String device, Ipv4Address outerSrc, Ipv4Address outerDst, int vni, int port, String underlay) {

    @Override
    public String toString() {
        return device + " vni " + vni + " udp/" + port + " " + outerSrc + " -> " + outerDst + " via " + underlay;
    }
}
