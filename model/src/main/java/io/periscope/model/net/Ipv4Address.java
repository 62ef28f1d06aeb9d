package io.periscope.model.net;

/**
 * An IPv4 address held as its 32 bits in an {@code int}, so that comparisons, prefix matching and
 * hashing cost what they cost in the kernel. Ordering is unsigned (0.0.0.0 first, 255.255.255.255 last).
 */
public record Ipv4Address(int bits) implements IpAddress {

    public static final Ipv4Address ANY = new Ipv4Address(0);

    // Written out, with the values a record derives (its hash of one int is the int): the derived
    // methods dispatch through a method handle the JIT does not inline, and the simulator compares
    // addresses at every step of every packet.
    @Override
    public boolean equals(Object other) {
        return other instanceof Ipv4Address address && address.bits == bits;
    }

    @Override
    public int hashCode() {
        return bits;
    }

    /** Parses dotted-quad text; throws {@link IllegalArgumentException} with the offending text otherwise. */
    public static Ipv4Address parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing IPv4 address");
        }
        int value = 0;
        int octets = 0;
        int octet = -1;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : '.';
            if (c >= '0' && c <= '9') {
                octet = (octet < 0 ? 0 : octet * 10) + (c - '0');
                if (octet > 255) {
                    throw new IllegalArgumentException("'" + text + "' is not an IPv4 address: octet above 255");
                }
            } else if (c == '.' && octet >= 0) {
                value = (value << 8) | octet;
                octets++;
                octet = -1;
            } else {
                throw new IllegalArgumentException("'" + text + "' is not an IPv4 address (expected a.b.c.d)");
            }
        }
        if (octets != 4) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 address (expected a.b.c.d)");
        }
        return new Ipv4Address(value);
    }

    public static Ipv4Address of(int a, int b, int c, int d) {
        return new Ipv4Address((a & 0xff) << 24 | (b & 0xff) << 16 | (c & 0xff) << 8 | (d & 0xff));
    }

    /** The address {@code n} positions further on (negative goes back); wraps like unsigned arithmetic. */
    public Ipv4Address plus(long n) {
        return new Ipv4Address((int) (unsigned() + n));
    }

    /** The address as an unsigned value in a long, for arithmetic without sign surprises. */
    public long unsigned() {
        return Integer.toUnsignedLong(bits);
    }

    /** Octet {@code i} (0 is the leftmost). */
    public int octet(int i) {
        return (bits >>> (24 - 8 * i)) & 0xff;
    }

    @Override
    public int compareTo(IpAddress other) {
        return switch (other) {
            case Ipv4Address v4 -> Integer.compareUnsigned(bits, v4.bits);
        };
    }

    @Override
    public String toString() {
        return octet(0) + "." + octet(1) + "." + octet(2) + "." + octet(3);
    }
}
