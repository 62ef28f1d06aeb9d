package io.periscope.model.topology;

import java.util.Objects;

/**
 * The WAN path between two clusters' gateways as the file's {@code cables} describe it: what it does to
 * packets each way, on top of what the gateways' own uplinks do. {@code left} and {@code right} are
 * cluster names in the order the file lists them under {@code between}.
 */
public record CableLink(String left, String right, LinkProperties properties) {

    public CableLink {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
        Objects.requireNonNull(properties, "properties");
    }

    /** Whether this cable joins {@code a} and {@code b}, in either order. */
    public boolean joins(String a, String b) {
        return left.equals(a) && right.equals(b) || left.equals(b) && right.equals(a);
    }
}
