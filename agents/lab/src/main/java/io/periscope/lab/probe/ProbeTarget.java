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
}
