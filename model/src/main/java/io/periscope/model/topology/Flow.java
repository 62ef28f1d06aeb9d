package io.periscope.model.topology;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A named flow the user wants traced, with what they expect to happen to it.
 *
 * @param size the IP packet's total length in bytes, sent with Don't Fragment set (as {@code ping -M do
 *             -s} does), so that a path whose MTU is smaller shows where it drops; empty for a small packet
 */
public record Flow(String name, FlowSource from, FlowTarget to, Protocol protocol, Optional<Disposition> expect, OptionalInt size) {

    /** The smallest size: an IPv4 header and a UDP or ICMP echo header. */
    public static final int MIN_SIZE = 28;
    public static final int MAX_SIZE = 65535;

    public Flow(String name, FlowSource from, FlowTarget to, Protocol protocol, Optional<Disposition> expect) {
        this(name, from, to, protocol, expect, OptionalInt.empty());
    }
}
