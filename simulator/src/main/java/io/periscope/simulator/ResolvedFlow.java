package io.periscope.simulator;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;

import java.util.Optional;

/**
 * A flow reduced to what the dataplane needs: the host whose socket sends, its source address (empty:
 * the host picks one by routing, as for a node or host-network pod), destination, ports, protocol.
 */
public record ResolvedFlow(HostId source, Optional<Ipv4Address> sourceIp, Ipv4Address destination, int port,
                           Protocol protocol, int sourcePort, int size) {

    /** The source port traces use unless told otherwise. */
    public static final int DEFAULT_SOURCE_PORT = 40000;

    public ResolvedFlow(HostId source, Optional<Ipv4Address> sourceIp, Ipv4Address destination, int port, Protocol protocol,
                        int sourcePort) {
        this(source, sourceIp, destination, port, protocol, sourcePort, io.periscope.simulator.trace.Packet.SMALL);
    }

    /** The same flow with packets {@code bytes} long (the file's {@code size}), sent with Don't Fragment. */
    public ResolvedFlow withSize(int bytes) {
        return new ResolvedFlow(source, sourceIp, destination, port, protocol, sourcePort, bytes);
    }

    public ResolvedFlow(HostId source, Optional<Ipv4Address> sourceIp, Ipv4Address destination, int port, Protocol protocol) {
        this(source, sourceIp, destination, port, protocol, DEFAULT_SOURCE_PORT);
    }

    /** {@code ip:port}, or the bare address when there is no port. */
    public String resolvedText() {
        return protocol.hasPorts() && port != 0 ? destination + ":" + port : destination.toString();
    }
}
