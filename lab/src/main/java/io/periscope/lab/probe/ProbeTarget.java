package io.periscope.lab.probe;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;

import java.util.Optional;

/**
 * A flow resolved as the simulator resolves it: the host whose socket sends, the address it binds
 * (empty: routing picks, as for a node), where it connects to, and how {@code to} resolved.
 *
 * @param size the IP length of the flow's packets, sent with Don't Fragment; 0 for the probe's own small ones
 */
public record ProbeTarget(HostId source, Optional<Ipv4Address> sourceIp, Ipv4Address destination, int port, Protocol protocol,
                          String resolved, int size) {

    public ProbeTarget(HostId source, Optional<Ipv4Address> sourceIp, Ipv4Address destination, int port, Protocol protocol,
                       String resolved) {
        this(source, sourceIp, destination, port, protocol, resolved, 0);
    }

    /** The same flow sent to another address (the one real DNS answered), shown as {@code resolved} shows it. */
    public ProbeTarget withDestination(Ipv4Address other) {
        return new ProbeTarget(source, sourceIp, other, port, protocol, protocol.hasPorts() && port != 0 ? other + ":" + port : other.toString(),
                size);
    }

    /** Whether the flow has a size: its packets carry Don't Fragment and must be exactly that long. */
    public boolean sized() {
        return size > 0;
    }
}
