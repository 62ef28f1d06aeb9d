package io.periscope.simulator.trace;

/** How a cable wraps a packet, as an {@code encap} / {@code decap} step names it. */
public enum Encapsulation {
    /** VXLAN in UDP: the route agent's {@code vx-submariner} and the vxlan cable's {@code vxlan-tunnel}; not encrypted. */
    VXLAN("vxlan"),
    /** WireGuard in UDP, from the device's listen port to the peer's endpoint; encrypted. */
    WIREGUARD("wireguard"),
    /** IPsec tunnel-mode ESP inside UDP (NAT-T), by an XFRM policy of a Libreswan connection; encrypted. */
    ESP_IN_UDP("esp-in-udp"),
    /**
     * IPsec tunnel-mode ESP as IP protocol 50, no UDP header: a Libreswan connection without NAT between
     * its gateways and without {@code forceUDPEncapsulation}, as upstream sends it; encrypted.
     */
    ESP("esp");

    private final String jsonName;

    Encapsulation(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    /** Whether the outer packet is UDP, with a destination port a step names; bare ESP has none. */
    public boolean inUdp() {
        return this != ESP;
    }
}
