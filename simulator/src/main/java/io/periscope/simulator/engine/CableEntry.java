package io.periscope.simulator.engine;

import io.periscope.model.topology.Disposition;

/**
 * What the {@link Decapsulator} made of a cable's datagram that reached a socket of its host: the
 * inner packet enters the host again, or the receiving end refused it. The walker acts on it.
 */
sealed interface CableEntry {

    /** The inner packet of {@code tunnel} enters the host from {@code device}, as if it had arrived there. */
    record Unwrapped(String device, Tunnel tunnel) implements CableEntry {
    }

    /** The receiving end dropped the datagram: the branch ends with this disposition and reason. */
    record Refused(Disposition disposition, String reason) implements CableEntry {
    }
}
