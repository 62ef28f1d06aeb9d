package io.periscope.lab.probe;

import io.periscope.lab.trace.TracePacket;
import io.periscope.plan.HostId;

import java.util.Optional;

/**
 * Asks a host's kernel how it routes a packet that came in on an interface. The probe asks where a
 * packet ended silently: the ICMP error that would say "no route" is rate-limited per sender by a
 * machine-wide setting ({@code net.ipv4.route.error_cost}) that the lab does not touch.
 */
public interface RouteQuery {

    /** {@code no-route} or {@code unreachable} when the host has no usable route for the packet; empty when it has one. */
    Optional<String> failure(HostId host, TracePacket packet, Optional<String> in);
}
