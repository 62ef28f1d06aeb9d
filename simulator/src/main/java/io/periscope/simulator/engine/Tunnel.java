package io.periscope.simulator.engine;

import io.periscope.plan.cable.IpsecConnection;
import io.periscope.simulator.link.VxlanFabric;
import io.periscope.simulator.trace.Packet;

/**
 * The payload of an outer packet: the inner packet (itself possibly carrying a tunnel) and what the
 * receiver needs to take it out, which differs per cable.
 */
sealed interface Tunnel {

    Packet inner();

    Tunnel innerTunnel();

    /** A VXLAN frame: the VNI, and the inner frame's destination MAC, which decides whether the receiving device keeps it. */
    record Vxlan(int vni, VxlanFabric.DeviceMac mac, Packet inner, Tunnel innerTunnel) implements Tunnel {
    }

    /**
     * A WireGuard message: the sender's key pair id, which is how the receiver knows the peer, and the
     * id of the preshared key the sender mixed into the handshake, which the receiver's must equal.
     */
    record WireGuard(String senderKey, String presharedKey, Packet inner, Tunnel innerTunnel) implements Tunnel {
    }

    /** ESP of the SA negotiated for {@code sender} (the sending gateway's connection). */
    record Esp(IpsecConnection sender, Packet inner, Tunnel innerTunnel) implements Tunnel {
    }
}
