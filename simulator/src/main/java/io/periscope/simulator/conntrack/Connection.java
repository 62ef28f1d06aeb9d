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
 *
 * <p>Each tuple is kept as the packet a trace lists for it (TTL 64, size not followed): a trace lists
 * every entry it meets, so a tuple object beside that packet was two more objects per connection,
 * and one confirmed from a packet already in that form shares it.
 */
public final class Connection {

    private final int host;
    private final Packet original;
    private final Packet reply;
    private final boolean snat;
    private final boolean dnat;
    private final int connmark;
    /** The entry as a trace lists it, made when first asked for; immutable, so a race makes two equal ones. */
    private Optional<ConntrackLookup.Entry> listed;

    /** @param host the host index the entry lives in (conntrack is per network namespace) */
    public Connection(int host, ConnTuple original, ConnTuple reply, boolean snat, boolean dnat, int connmark) {
        this(host, tuple(original.src(), original.dst(), original.sport(), original.dport(), original.protocol()),
                tuple(reply.src(), reply.dst(), reply.sport(), reply.dport(), reply.protocol()), snat, dnat, connmark);
    }

    /**
     * The connection conntrack confirms for a packet that was {@code original} when it was looked up and
     * leaves as {@code leaving}: its reply tuple is the inverse of {@code leaving}.
     */
    public static Connection confirmed(int host, Packet original, Packet leaving, boolean snat, boolean dnat, int connmark) {
        Packet o = isTuple(original) ? original
                : tuple(original.src(), original.dst(), original.sport(), original.dport(), original.protocol());
        return new Connection(host, o, tuple(leaving.dst(), leaving.src(), leaving.dport(), leaving.sport(), leaving.protocol()),
                snat, dnat, connmark);
    }

    /**
     * As {@link #confirmed(int, Packet, Packet, boolean, boolean, int)}, sharing the tuples (and, when
     * the rest is equal too, the listed entry) of {@code like}, a connection of another host with the
     * same original tuple, where they are the same: the hosts along a path confirm the same tuples hop
     * after hop (no NAT between them), and those were two packets and an entry per hop. Null
     * {@code like} shares nothing.
     */
    public static Connection confirmed(int host, Packet original, Packet leaving, boolean snat, boolean dnat, int connmark,
                                       Connection like) {
        if (like == null || !like.original.sameFlow(original)) {
            return confirmed(host, original, leaving, snat, dnat, connmark);
        }
        // NAT on this host gives it a reply tuple of its own.
        boolean sameReply = isInverse(like.reply, leaving);
        Connection c = new Connection(host, like.original, sameReply ? like.reply
                : tuple(leaving.dst(), leaving.src(), leaving.dport(), leaving.sport(), leaving.protocol()), snat, dnat, connmark);
        if (sameReply && like.snat == snat && like.dnat == dnat && like.connmark == connmark) {
            c.listed = like.listed;
        }
        return c;
    }

    /** Whether tuple {@code t} is the reply tuple of a connection whose packet left as {@code leaving}. */
    private static boolean isInverse(Packet t, Packet leaving) {
        return t.src().bits() == leaving.dst().bits() && t.dst().bits() == leaving.src().bits() && t.sport() == leaving.dport()
                && t.dport() == leaving.sport() && t.protocol() == leaving.protocol();
    }

    private Connection(int host, Packet original, Packet reply, boolean snat, boolean dnat, int connmark) {
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

    /** The original direction's tuple, as a packet (its TTL means nothing). */
    public Packet original() {
        return original;
    }

    /** The reply direction's tuple, as a packet (its TTL means nothing). */
    public Packet reply() {
        return reply;
    }

    /** A tuple as a packet; ports are kept as given, as conntrack compares them. */
    private static Packet tuple(io.periscope.model.net.Ipv4Address src, io.periscope.model.net.Ipv4Address dst, int sport, int dport,
                                io.periscope.model.topology.Protocol protocol) {
        return new Packet(src, dst, sport, dport, protocol, Packet.DEFAULT_TTL);
    }

    /** Whether {@code p} is a tuple's packet already: TTL 64, size not followed, Don't Fragment as a tuple's. */
    private static boolean isTuple(Packet p) {
        return p.ttl() == Packet.DEFAULT_TTL && p.length() == Packet.SMALL && p.df();
    }

    /** The tuple {@code t} as a trace lists it: {@link Packet#of}, which has no ports without a protocol that has them. */
    private static Packet listed(Packet t) {
        return t.protocol().hasPorts() || t.sport() == 0 && t.dport() == 0 ? t
                : Packet.of(t.src(), t.dst(), t.sport(), t.dport(), t.protocol());
    }

    /** Whether {@code packet} travels in the direction of tuple {@code t}. */
    static boolean matches(Packet t, Packet packet) {
        return t.sameFlow(packet);
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
            entry = Optional.of(new ConntrackLookup.Entry(listed(original), listed(reply), snat, dnat, connmark, true));
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
