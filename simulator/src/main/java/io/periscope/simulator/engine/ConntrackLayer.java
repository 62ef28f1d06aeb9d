package io.periscope.simulator.engine;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.CtState;
import io.periscope.simulator.conntrack.Connection;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.Packet;

import java.util.Optional;

/**
 * Conntrack for the packet layer a {@link Visit} is processing: the lookup when the layer enters a
 * host's stack, the states its rules match on, the confirmation at the end of POSTROUTING or INPUT,
 * and the closing of the layer into the hop's trace. The connections themselves are the branch's
 * {@link ConntrackState}, which a reply takes over; what the NAT table does to them is {@link Nat}'s.
 */
final class ConntrackLayer {

    private ConntrackLayer() {
    }

    /**
     * Finds the packet's connection in the host's table. With {@code tcpStates}, a TCP segment that has
     * no entry and opens none ({@link TcpSegment#opensConnection}) is INVALID, as
     * {@code nf_conntrack_in} leaves it: no entry is made and the packet goes on without one.
     */
    static void lookup(Visit v, boolean tcpStates) {
        close(v);
        ConntrackState.Match m = v.conntrack.find(v.host.index, v.packet);
        v.ctPacket = v.packet;
        v.untracked = false;
        v.invalid = false;
        v.snatDone = false;
        v.dnatDone = false;
        if (m == null && tcpStates && v.packet.protocol() == Protocol.TCP && !v.segment.opensConnection(v.host.tcpLoose)) {
            v.conn = null;
            v.isNew = false;
            v.reply = false;
            v.invalid = true;
            v.connmark = 0;
            v.ctOriginal = null;
            if (v.invalidAt == null) {
                v.invalidAt = v.host.name;
            }
            v.ctState = ConntrackLookup.State.INVALID;
            return;
        }
        if (m == null) {
            v.conn = null;
            v.isNew = true;
            v.reply = false;
            v.connmark = 0;
            v.ctOriginal = v.packet;
            v.ctState = ConntrackLookup.State.NEW;
        } else {
            v.conn = m.connection();
            v.isNew = false;
            v.reply = m.reply();
            v.connmark = m.connection().connmark();
            v.ctOriginal = null;
            v.ctState = ConntrackLookup.State.ESTABLISHED;
        }
    }

    /**
     * Writes what conntrack made of the layer just processed into the hop: its state at lookup (or
     * UNTRACKED when a rule said so), its direction, and the entry as it stands now (matched, created, or
     * for a new connection that ended here, the unconfirmed one).
     */
    static void close(Visit v) {
        if (v.ctState == null) {
            return;
        }
        if (!v.record) {
            v.ctState = null;
            return;
        }
        ConntrackLookup.State state = v.untracked ? ConntrackLookup.State.UNTRACKED : v.ctState;
        Optional<ConntrackLookup.Entry> entry;
        if (state == ConntrackLookup.State.UNTRACKED || state == ConntrackLookup.State.INVALID) {
            entry = Optional.empty();
        } else if (v.conn != null) {
            entry = v.conn.listed();
        } else {
            // The unconfirmed entry's tuples, written straight from the packets (no tuple objects between).
            Packet o = v.ctOriginal;
            Packet p = v.packet;
            entry = Optional.of(new ConntrackLookup.Entry(Packet.of(o.src(), o.dst(), o.sport(), o.dport(), o.protocol()),
                    Packet.of(p.dst(), p.src(), p.dport(), p.sport(), p.protocol()), v.snatDone, v.dnatDone, v.connmark, false));
        }
        v.ctLayers = v.ctLayers.add(new ConntrackLookup(v.ctPacket, state, v.reply, entry));
        v.ctState = null;
    }

    private static final int UNTRACKED = 1 << CtState.UNTRACKED.ordinal();
    private static final int INVALID = 1 << CtState.INVALID.ordinal();
    private static final int NEW = 1 << CtState.NEW.ordinal();
    private static final int ESTABLISHED = 1 << CtState.ESTABLISHED.ordinal();
    private static final int SNAT = 1 << CtState.SNAT.ordinal();
    private static final int DNAT = 1 << CtState.DNAT.ordinal();

    /** The layer's states as the bit set a {@code -m conntrack --ctstate} match tests, one bit per {@link CtState}. */
    static int states(Visit v) {
        if (v.untracked) {
            return UNTRACKED;
        }
        if (v.invalid) {
            return INVALID;
        }
        if (v.isNew) {
            return NEW | (v.snatDone ? SNAT : 0) | (v.dnatDone ? DNAT : 0);
        }
        return ESTABLISHED | (v.conn.snat() ? SNAT : 0) | (v.conn.dnat() ? DNAT : 0);
    }

    /** Conntrack confirmation, the last thing in POSTROUTING and INPUT. */
    static void commit(Visit v) {
        if (v.untracked || v.invalid) {
            return;
        }
        if (v.isNew) {
            Connection c = Connection.confirmed(v.host.index, v.ctOriginal, v.packet, v.snatDone, v.dnatDone, v.connmark,
                    v.conntrack.recentFlow(v.ctOriginal));
            v.conntrack = v.conntrack.with(c);
            v.conn = c;
            v.isNew = false;
            v.reply = false;
        } else if (v.connmark != v.conn.connmark()) {
            Connection c = v.conn.withConnmark(v.connmark);
            v.conntrack = v.conntrack.with(c);
            v.conn = c;
        }
    }

    /** Why an INVALID packet went on untranslated, for the reason of the end it came to. */
    static String invalidNote(Visit v) {
        return "conntrack on " + v.invalidAt + " had no connection for this " + v.segment.name().replace('_', '-')
                + (v.segment == TcpSegment.ACK ? " and nf_conntrack_tcp_loose=0 does not pick one up" : "")
                + ": INVALID, so it was not NATed";
    }
}
