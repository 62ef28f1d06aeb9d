package io.periscope.lab.probe;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;

import java.util.Optional;

/**
 * A flow resolved as the simulator resolves it: the host whose socket sends, the address it binds
 * (empty: routing picks, as for a node), where it connects to, and how {@code to} resolved.
 */
public record ProbeTarget(HostId source, Optional<Ipv4Address> sourceIp, Ipv4Address destination, int port, Protocol protocol,
                          String resolved) {

    /** The same flow sent to another address (the one real DNS answered), shown as {@code resolved} shows it. */
    public ProbeTarget withDestination(Ipv4Address other) {
        return new ProbeTarget(source, sourceIp, other, port, protocol, protocol.hasPorts() && port != 0 ? other + ":" + port : other.toString());
    }
}
