package io.periscope.simulator.engine;

import io.periscope.model.topology.Disposition;
import io.periscope.simulator.trace.Packet;

/**
 * What the {@link Encapsulator} made of a packet about to leave a host. The walker acts on it: a clear
 * packet goes onto the wire, a wrapped one is sent again from the same host, a refused one ends there.
 * Only the walker continues a walk, so the cable code stays a function of the packet and the plan.
 */
sealed interface CableExit {

    /** No cable covers the packet: it leaves by its route's device as it is. */
    record Clear() implements CableExit {
        static final Clear INSTANCE = new Clear();
    }

    /**
     * The packet became the payload of {@code outer}, which the host sends like any locally generated
     * packet (routed again, through OUTPUT and POSTROUTING), bound to device {@code oif} when not null.
     */
    record Wrapped(Packet outer, Tunnel tunnel, String oif) implements CableExit {
    }

    /** The cable could not carry the packet: the branch ends with this disposition and reason. */
    record Refused(Disposition disposition, String reason) implements CableExit {
    }
}
