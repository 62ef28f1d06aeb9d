package io.periscope.lab.capture;

import io.periscope.plan.HostId;

/**
 * A frame seen on one interface of one host, at a kernel timestamp (nanoseconds, one clock for the
 * whole machine, so sightings in different namespaces can be ordered).
 */
public record Sighting(HostId host, String iface, Direction direction, long nanos, CapturedFrame frame) {
}
