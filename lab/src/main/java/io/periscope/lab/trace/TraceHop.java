package io.periscope.lab.trace;

import java.util.Optional;

/**
 * A packet's visit to one host, in the fields of a hop of the trace JSON (spec section 3) that
 * real packets show: the host, the interfaces it came in and went out by, the packet as it arrived
 * and as it left, and the encapsulation it left in. The simulator's steps in between are not
 * observable from outside a host and are not part of this record.
 *
 * @param node   {@code cluster/node} or {@code cluster/namespace/pod}
 * @param in     empty where the packet was generated
 * @param out    empty where it ended (delivered or dropped)
 */
public record TraceHop(String node, Optional<String> in, Optional<String> out, TracePacket arrive, Optional<TracePacket> depart,
                       Optional<TraceEncap> encap) {

    /** The hop's place in a path: what has to agree before fields are compared. */
    public String position() {
        return node + in.map(i -> " in " + i).orElse("") + out.map(o -> " out " + o).orElse("");
    }
}
