package io.periscope.lab.probe;

import io.periscope.lab.trace.TracePacket;
import io.periscope.plan.HostId;

/** A probe packet that reached a server socket: on which host, and as the socket saw it. */
public record Delivery(HostId host, TracePacket received) {
}
