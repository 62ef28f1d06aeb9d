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

    public static final ConntrackState EMPTY = new ConntrackState(null, null, 0, 0L);

    private final Connection head;
    private final ConntrackState tail;
    private final int size;
    /**
     * Bit {@code host % 64} set for the host of every entry: a packet's first arrival at a host (every
     * hop of a forward path) is told it has no entry there without a walk of the whole list.
     */
    private final long hosts;

    private ConntrackState(Connection head, ConntrackState tail, int size, long hosts) {
        this.head = head;
        this.tail = tail;
        this.size = size;
        this.hosts = hosts;
    }

    public ConntrackState with(Connection connection) {
        return new ConntrackState(connection, this, size + 1, hosts | 1L << connection.host());
    }

    /** False when no entry belongs to {@code host}; true when one may. */
    private boolean mayHold(int host) {
        return (hosts & 1L << host) != 0;
    }

    public int size() {
        return size;
    }

    /**
     * The entries made since {@code base}, oldest first, when this state grew from {@code base} (the
     * very object); null when it did not.
     */
    public List<Connection> since(ConntrackState base) {
        List<Connection> made = new ArrayList<>(2);
        for (ConntrackState s = this; s != base; s = s.tail) {
            if (s.head == null) {
                return null;
            }
            made.add(s.head);
        }
        return made.reversed();
    }

    /** This state with {@code made} added, oldest first: {@link #since}'s entries made again on another state. */
    public ConntrackState withAll(List<Connection> made) {
        ConntrackState s = this;
        for (Connection c : made) {
            s = s.with(c);
        }
        return s;
    }

    /**
     * Whether each of {@code hosts} holds exactly the entries recorded for it ({@code entries[i]}, as
     * {@link #entriesOf} gave them): a walk memoised over those hosts then reads the same state again.
     */
    public boolean holdsOn(int[] hosts, List<?>[] entries) {
        for (int i = 0; i < hosts.length; i++) {
            if (!entriesOf(hosts[i]).equals(entries[i])) {
                return false;
            }
        }
        return true;
    }

    /** Whether some entry, of any host, is one {@code test} holds for. */
    public boolean any(java.util.function.Predicate<Connection> test) {
        for (ConntrackState s = this; s.head != null; s = s.tail) {
            if (test.test(s.head)) {
                return true;
            }
        }
        return false;
    }

    /** The entries of {@code host}, newest first: all of the state a packet on that host can read. */
    public List<Connection> entriesOf(int host) {
        if (!mayHold(host)) {
            return List.of();
        }
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
        if (!mayHold(host)) {
            return null;
        }
        // The summary of each node covers it and all older ones: once it lacks the host, so does the rest.
        for (ConntrackState s = this; s.mayHold(host); s = s.tail) {
            Connection c = s.head;
            if (c.host() != host) {
                continue;
            }
            if (Connection.matches(c.original(), packet)) {
                return new Match(c, false);
            }
            if (Connection.matches(c.reply(), packet)) {
                return new Match(c, true);
            }
        }
        return null;
    }

    /** How many of the newest entries {@link #recentFlow} looks at: a gateway's hop confirms an inner and an outer connection. */
    private static final int RECENT = 4;

    /**
     * One of the few newest entries (of any host) whose original tuple is {@code original}'s flow, or
     * null: the connection the previous hops of a path confirmed for the same packet, whose tuples a
     * new one may share.
     */
    public Connection recentFlow(Packet original) {
        ConntrackState s = this;
        for (int i = 0; i < RECENT && s.head != null; i++, s = s.tail) {
            if (s.head.original().sameFlow(original)) {
                return s.head;
            }
        }
        return null;
    }

    /** Whether some entry of {@code host} already expects replies on {@code reply} (a NAT clash). */
    public boolean replyTupleInUse(int host, ConnTuple reply) {
        if (!mayHold(host)) {
            return false;
        }
        for (ConntrackState s = this; s.head != null; s = s.tail) {
            if (s.head.host() == host && reply.matches(s.head.reply())) {
                return true;
            }
        }
        return false;
    }

    /** A packet's connection and whether the packet travels in its reply direction. */
    public record Match(Connection connection, boolean reply) {
    }
}
