package io.periscope.lab.trace;

import io.periscope.model.net.Ipv4Address;

/**
 * An encapsulation on the way out of a hop: the tunnel device, the outer addresses, VNI (VXLAN
 * only; 0 otherwise) and UDP port (0 for bare ESP), the underlay interface the outer packet left
 * by, how the cable wraps the packet ({@code vxlan}, {@code wireguard}, {@code esp}, as the
 * simulator's trace names it) and whether the wrapped packet is encrypted.
 */
public record TraceEncap(String encapsulation, String device, Ipv4Address outerSrc, Ipv4Address outerDst, int vni, int port,
                         String underlay, boolean encrypted) {

    public static final String VXLAN = "vxlan";
    public static final String WIREGUARD = "wireguard";
    /** ESP as IP protocol 50 (a Libreswan cable without NAT): no UDP, so no port. */
    public static final String ESP = "esp";

    /** A VXLAN encapsulation, which is never encrypted. */
    public TraceEncap(String device, Ipv4Address outerSrc, Ipv4Address outerDst, int vni, int port, String underlay) {
        this(VXLAN, device, outerSrc, outerDst, vni, port, underlay, false);
    }

    @Override
    public String toString() {
        String wrapped = encapsulation.equals(VXLAN) ? device + " vni " + vni : device + " " + encapsulation;
        return wrapped + (encapsulation.equals(ESP) ? " proto 50" : " udp/" + port) + " " + outerSrc + " -> " + outerDst + " via " + underlay + (encrypted ? " encrypted" : "");
    }
}
