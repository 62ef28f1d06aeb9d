package io.periscope.lab.capture;

import io.periscope.plan.HostId;
import io.periscope.plan.link.MacAddress;

/**
 * An interface to capture on: the host and its namespace, the interface's name there and its MAC,
 * which tells frames leaving the interface (source MAC) from frames arriving for it (destination
 * MAC), and leaves out frames a bridge flooded to it for someone else.
 */
public record CaptureTarget(HostId host, String namespace, String iface, MacAddress mac) {
}
