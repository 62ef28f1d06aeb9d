package io.periscope.model.net;

/**
 * An IPv4 CIDR such as {@code 10.0.0.0/16}. The network address always has its host bits clear:
 * {@link #parse} refuses {@code 10.0.0.1/16} instead of silently truncating it, because a user who
 * wrote that most likely meant something else.
 */
public record Ipv4Prefix(Ipv4Address network, int length) implements IpPrefix, Comparable<Ipv4Prefix> {

    public static final Ipv4Prefix DEFAULT = new Ipv4Prefix(Ipv4Address.ANY, 0);

    public Ipv4Prefix {
        if (length < 0 || length > 32) {
            throw new IllegalArgumentException("prefix length " + length + " is outside 0..32");
        }
        if ((network.bits() & ~mask(length)) != 0) {
            throw new IllegalArgumentException(network + "/" + length + " has host bits set; the network is "
                    + new Ipv4Address(network.bits() & mask(length)) + "/" + length);
        }
    }

    /** Parses {@code a.b.c.d/len}; a bare address is a /32. */
    public static Ipv4Prefix parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing CIDR");
        }
        int slash = text.indexOf('/');
        if (slash < 0) {
            return new Ipv4Prefix(Ipv4Address.parse(text), 32);
        }
        int length;
        try {
            length = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR (expected a.b.c.d/len)");
        }
        if (length < 0 || length > 32) {
            throw new IllegalArgumentException("'" + text + "' has prefix length " + length + ", outside 0..32");
        }
        return new Ipv4Prefix(Ipv4Address.parse(text.substring(0, slash)), length);
    }

    /** The prefix of the given length that contains {@code address}. */
    public static Ipv4Prefix containing(Ipv4Address address, int length) {
        return new Ipv4Prefix(new Ipv4Address(address.bits() & mask(length)), length);
    }

    public static Ipv4Prefix host(Ipv4Address address) {
        return new Ipv4Prefix(address, 32);
    }

    static int mask(int length) {
        return length == 0 ? 0 : -1 << (32 - length);
    }

    public int mask() {
        return mask(length);
    }

    public boolean contains(Ipv4Address address) {
        return (address.bits() & mask(length)) == network.bits();
    }

    public boolean contains(Ipv4Prefix other) {
        return other.length >= length && contains(other.network);
    }

    public boolean overlaps(Ipv4Prefix other) {
        return contains(other.network) || other.contains(network);
    }

    /** Number of addresses, 2^(32-length). */
    public long size() {
        return 1L << (32 - length);
    }

    public Ipv4Address first() {
        return network;
    }

    public Ipv4Address last() {
        return new Ipv4Address(network.bits() | ~mask(length));
    }

    @Override
    public int compareTo(Ipv4Prefix o) {
        int c = network.compareTo(o.network);
        return c != 0 ? c : Integer.compare(length, o.length);
    }

    @Override
    public String toString() {
        return network + "/" + length;
    }
}
