package io.periscope.simulator.conntrack;

import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.Packet;

import java.util.Objects;
import java.util.Optional;

/**
 * A confirmed conntrack entry of one host. The reply tuple is the inverse of the original tuple after
 * NAT, so it says by itself which translations a reply needs undone; {@code snat} and {@code dnat} are
 * the kernel's IPS_SRC_NAT / IPS_DST_NAT status bits, which {@code --ctstate SNAT,DNAT} test in both
 * directions.
 *
 * <p>A value (equal by its six fields) rather than a record only so that it can keep the entry as a
 * trace lists it: every hop that looks the connection up, forward and reply and on every branch that
 * shares it, writes the same entry, which is made once instead of per lookup.
 */
public final class Connection {

    private final int host;
    private final ConnTuple original;
    private final ConnTuple reply;
    private final boolean snat;
    private final boolean dnat;
    private final int connmark;
    /** The entry as a trace lists it, made when first asked for; immutable, so a race makes two equal ones. */
    private Optional<ConntrackLookup.Entry> listed;

    /** @param host the host index the entry lives in (conntrack is per network namespace) */
    public Connection(int host, ConnTuple original, ConnTuple reply, boolean snat, boolean dnat, int connmark) {
        this.host = host;
        this.original = original;
        this.reply = reply;
        this.snat = snat;
        this.dnat = dnat;
        this.connmark = connmark;
    }

    public int host() {
        return host;
    }

    public ConnTuple original() {
        return original;
    }

    public ConnTuple reply() {
        return reply;
    }

    public boolean snat() {
        return snat;
    }

    public boolean dnat() {
        return dnat;
    }

    public int connmark() {
        return connmark;
    }

    public Connection withConnmark(int newMark) {
        return new Connection(host, original, reply, snat, dnat, newMark);
    }

    /** The confirmed entry as {@code conntrack -L} lists it, in a hop's {@link ConntrackLookup}. */
    public Optional<ConntrackLookup.Entry> listed() {
        Optional<ConntrackLookup.Entry> entry = listed;
        if (entry == null) {
            entry = Optional.of(new ConntrackLookup.Entry(original.asPacket(), reply.asPacket(), snat, dnat, connmark, true));
            listed = entry;
        }
        return entry;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Connection c && host == c.host && snat == c.snat && dnat == c.dnat && connmark == c.connmark
                && original.equals(c.original) && reply.equals(c.reply);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, original, reply, snat, dnat, connmark);
    }

    @Override
    public String toString() {
        return "Connection[host=" + host + ", original=" + original + ", reply=" + reply + ", snat=" + snat + ", dnat=" + dnat
                + ", connmark=" + connmark + "]";
    }
}
