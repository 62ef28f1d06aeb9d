package io.periscope.simulator.trace;

import java.util.Optional;

/**
 * What the conntrack of a hop's host made of one packet it handled: a hop has one per packet layer
 * (a tunnel's outer packet has its own, before or after the inner one), in the order they were looked up.
 *
 * @param packet the packet as conntrack looked it up (before this host's NAT)
 * @param state  the {@code --ctstate} the host's rules saw
 * @param reply  whether the packet travels in its entry's reply direction
 * @param entry  the entry the packet belongs to when the layer was done: the one it matched, or the one
 *               it created; none for an untracked or invalid packet
 */
public record ConntrackLookup(Packet packet, State state, boolean reply, Optional<Entry> entry) {

    public enum State {
        /** The first packet of a connection: an entry is created, confirmed when the packet leaves or is delivered. */
        NEW,
        /** A packet of a connection that has an entry, in either direction. */
        ESTABLISHED,
        /** A TCP segment that neither belongs to an entry nor may open one: no entry, no NAT. */
        INVALID,
        /** {@code -j CT --notrack}: conntrack leaves the packet alone. */
        UNTRACKED
    }

    /**
     * An entry as {@code conntrack -L} lists it. The tuples are written as packets (their TTL means
     * nothing); the reply tuple is the inverse of the original after NAT, so a reply needs undone what the
     * two differ by. {@code confirmed} is false for a new connection whose first packet ended on this host
     * before leaving it (dropped), which the kernel never lists.
     */
    public record Entry(Packet original, Packet replyTuple, boolean snat, boolean dnat, int connmark, boolean confirmed) {
    }
}
