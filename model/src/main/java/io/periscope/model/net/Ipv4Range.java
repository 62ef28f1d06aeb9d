package io.periscope.model.net;

import java.util.ArrayList;
import java.util.List;

/** An inclusive range of IPv4 addresses, as iptables writes SNAT pools: {@code 242.254.1.1-242.254.1.8}. */
public record Ipv4Range(Ipv4Address first, Ipv4Address last) {

    public Ipv4Range {
        if (first.compareTo(last) > 0) {
            throw new IllegalArgumentException("range " + first + "-" + last + " ends before it starts");
        }
    }

    public static Ipv4Range single(Ipv4Address address) {
        return new Ipv4Range(address, address);
    }

    /** Parses {@code a.b.c.d} or {@code a.b.c.d-e.f.g.h}. */
    public static Ipv4Range parse(String text) {
        int dash = text.indexOf('-');
        if (dash < 0) {
            return single(Ipv4Address.parse(text));
        }
        return new Ipv4Range(Ipv4Address.parse(text.substring(0, dash)), Ipv4Address.parse(text.substring(dash + 1)));
    }

    public long size() {
        return last.unsigned() - first.unsigned() + 1;
    }

    public boolean contains(Ipv4Address address) {
        return first.compareTo(address) <= 0 && address.compareTo(last) <= 0;
    }

    public Ipv4Address get(long index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException(index + " outside " + this);
        }
        return first.plus(index);
    }

    public List<Ipv4Address> addresses() {
        List<Ipv4Address> all = new ArrayList<>((int) size());
        for (long i = 0; i < size(); i++) {
            all.add(first.plus(i));
        }
        return all;
    }

    @Override
    public String toString() {
        return first.equals(last) ? first.toString() : first + "-" + last;
    }
}
