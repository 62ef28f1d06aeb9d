package io.periscope.lab.link;

import java.util.Optional;

/**
 * A device whose egress the lab's link layer owns: a node's device on a lab switch, or the switch's
 * port towards it. Its root qdisc is the lab's when it is a {@code tbf} of handle {@code 1:} (what
 * {@link TcShaping} builds); the layer removes that when {@code shaping} is empty and leaves any
 * other root alone.
 *
 * @param device  the device's name in its namespace
 * @param mtu     its MTU: the largest frame it sends is 14 bytes more
 * @param link    whose link it is and which way it carries packets, for people (e.g. {@code cluster1/gw uplink, to the switch})
 * @param shaping what its egress is shaped to, empty for as fast as the machine
 */
public record ManagedDevice(String device, int mtu, String link, Optional<Shaping> shaping) {

    /** Ethernet's header, which tc counts in every packet's length. */
    public static final int ETHERNET_HEADER = 14;

    /** The largest frame the device sends. */
    public int frameBytes() {
        return mtu + ETHERNET_HEADER;
    }
}
