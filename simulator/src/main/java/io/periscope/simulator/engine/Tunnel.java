package io.periscope.simulator.engine;

import io.periscope.plan.link.MacAddress;
import io.periscope.simulator.trace.Packet;

/**
 * The VXLAN payload of an outer packet: the inner packet (itself possibly carrying a tunnel), the VNI,
 * and the inner frame's destination MAC, which decides whether the receiving device keeps it.
 */
record Tunnel(int vni, MacAddress mac, Packet inner, Tunnel innerTunnel) {
}
