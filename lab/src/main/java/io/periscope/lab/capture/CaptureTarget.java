package io.periscope.lab.capture;

import io.periscope.plan.HostId;
import io.periscope.plan.link.MacAddress;

import java.util.Optional;

/**
 * An interface to capture on: the host and its namespace, the interface's name there and its MAC,
 * which tells frames leaving the interface (source MAC) from frames arriving for it (destination
 * MAC), and leaves out frames a bridge flooded to it for someone else.
 *
 * <p>A layer-3 device (WireGuard's {@code tun}) has no MAC and hands the capture bare IP packets:
 * it is captured twice, once per {@code direction}, the kernel telling which way each went.
 *
 * @param layer3 the one direction captured on a layer-3 device; empty for an Ethernet interface
 */
public record CaptureTarget(HostId host, String namespace, String iface, MacAddress mac, Optional<Direction> layer3) {

    public CaptureTarget(HostId host, String namespace, String iface, MacAddress mac) {
        this(host, namespace, iface, mac, Optional.empty());
    }

    /**
     * An Ethernet interface for a {@link CaptureSession#keepingWholeFrames} session, which keeps
     * frames whichever way they went and so has no use for the interface's MAC.
     */
    public static CaptureTarget forWholeFrames(HostId host, String namespace, String iface) {
        return new CaptureTarget(host, namespace, iface, MacAddress.ZERO);
    }

    /** One direction of a layer-3 device. */
    public static CaptureTarget layer3(HostId host, String namespace, String iface, Direction direction) {
        return new CaptureTarget(host, namespace, iface, MacAddress.ZERO, Optional.of(direction));
    }
}
