package io.periscope.simulator.conntrack;

import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.List;

/**
 * The conntrack tables of every host along one path, as a persistent list: adding an entry shares the
 * rest, so each branch of a multipath fork keeps its own state for the price of one node. A path
 * touches few hosts and makes few connections, so a linear scan beats any hashing here. A newer entry
 * for the same connection (a connmark change) shadows the older one.
 */
public final class ConntrackState {

    public static final ConntrackState EMPTY = new ConntrackState(null, null, 0);

    private final Connection head;
    private final ConntrackState tail;
    private final int size;

    private ConntrackState(Connection head, ConntrackState tail, int size) {
        this.head = head;
        this.tail = tail;
        this.size = size;
    }

    public ConntrackState with(Connection connection) {
        return new ConntrackState(connection, this, size + 1);
    }

    public int size() {
        return size;
    }

    /** The entries of {@code host}, newest first: all of the state a packet on that host can read. */
    public List<Connection> entriesOf(int host) {
        List<Connection> entries = null;
        for (ConntrackState s = this; s.head != null; s = s.tail) {
            if (s.head.host() == host) {
                if (entries == null) {
                    entries = new ArrayList<>(2);
                }
                entries.add(s.head);
            }
        }
        return entries == null ? List.of() : entries;
    }

    /** The entry of {@code host} this packet belongs to, in either direction; null when there is none. */
    public Match find(int host, Packet packet) {
        for (ConntrackState s = this; s.head != null; s = s.tail) {
            Connection c = s.head;
            if (c.host() != host) {
                continue;
            }
            if (c.original().matches(packet)) {
                return new Match(c, false);
            }
            if (c.reply().matches(packet)) {
                return new Match(c, true);
            }
        }
        return null;
    }

    /** Whether some entry of {@code host} already expects replies on {@code reply} (a NAT clash). */
    public boolean replyTupleInUse(int host, ConnTuple reply) {
        for (ConntrackState s = this; s.head != null; s = s.tail) {
            if (s.head.host() == host && s.head.reply().equals(reply)) {
                return true;
            }
        }
        return false;
    }

    /** A packet's connection and whether the packet travels in its reply direction. */
    public record Match(Connection connection, boolean reply) {
    }
}
