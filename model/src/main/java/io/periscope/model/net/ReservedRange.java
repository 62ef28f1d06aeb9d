package io.periscope.model.net;

import java.util.Optional;

/**
 * The IPv4 ranges no node, pod or service can be addressed from (RFC 6890): a packet to them is not
 * routed to a host, so a topology that gave one to a host would trace as delivered while the kernel
 * drops it, rejects the address, or sends it nowhere.
 */
public enum ReservedRange {
    THIS_NETWORK("0.0.0.0/8", "'this network' (0.0.0.0/8, with the unspecified 0.0.0.0): no host is reached at it"),
    LOOPBACK("127.0.0.0/8", "loopback (127.0.0.0/8): it never leaves the host that sends it"),
    LINK_LOCAL("169.254.0.0/16", "link-local (169.254.0.0/16): routers and tunnels do not carry it between networks"),
    MULTICAST("224.0.0.0/4", "multicast (224.0.0.0/4): it names a group, not a host"),
    // Not the rest of 240.0.0.0/4: Linux routes it as unicast, and Globalnet's default range 242.0.0.0/8 is in it.
    BROADCAST("255.255.255.255/32", "the limited broadcast address (255.255.255.255): it goes to every host of the link, never across");

    private final Ipv4Prefix range;
    private final String description;

    ReservedRange(String range, String description) {
        this.range = Ipv4Prefix.parse(range);
        this.description = description;
    }

    public Ipv4Prefix range() {
        return range;
    }

    /** What the range is and why it cannot be a host's, for an error message. */
    public String description() {
        return description;
    }

    /** The reserved range holding {@code address}, if any. */
    public static Optional<ReservedRange> of(Ipv4Address address) {
        for (ReservedRange reserved : values()) {
            if (reserved.range.contains(address)) {
                return Optional.of(reserved);
            }
        }
        return Optional.empty();
    }

    /** A reserved range that {@code prefix} overlaps, if any: a network of hosts may hold none of it. */
    public static Optional<ReservedRange> overlapping(Ipv4Prefix prefix) {
        for (ReservedRange reserved : values()) {
            if (reserved.range.overlaps(prefix)) {
                return Optional.of(reserved);
            }
        }
        return Optional.empty();
    }
}
