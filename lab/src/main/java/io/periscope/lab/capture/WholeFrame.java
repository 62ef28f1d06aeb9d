package io.periscope.lab.capture;

import io.periscope.plan.HostId;

/**
 * A frame's bytes as they were seen on {@code iface} of {@code host}, up to the session's snap
 * length. A probe's sightings keep only the fields that identify a packet; showing that a payload
 * crossed the wire hidden (or in clear) needs the bytes themselves.
 */
public record WholeFrame(HostId host, String iface, byte[] bytes) {
}
