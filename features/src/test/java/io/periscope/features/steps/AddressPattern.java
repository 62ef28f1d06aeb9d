package io.periscope.features.steps;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Range;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * An address as the scenarios write it in a SRC or DST cell: {@code 10.1.128.4}, with a port
 * {@code 10.0.128.5:80}, or a range {@code 242.254.1.9-242.254.1.16} where an SNAT range lets the
 * kernel pick any address of it (one per flow, by hash); an empty cell accepts anything.
 */
record AddressPattern(Optional<Ipv4Range> range, OptionalInt port) {

    static AddressPattern parse(String cell) {
        String text = cell == null ? "" : cell.trim();
        if (text.isEmpty()) {
            return new AddressPattern(Optional.empty(), OptionalInt.empty());
        }
        OptionalInt port = OptionalInt.empty();
        int colon = text.lastIndexOf(':');
        if (colon >= 0) {
            port = OptionalInt.of(Integer.parseInt(text.substring(colon + 1)));
            text = text.substring(0, colon);
        }
        int dash = text.indexOf('-');
        Ipv4Range range = dash < 0 ? Ipv4Range.single(Ipv4Address.parse(text))
                : new Ipv4Range(Ipv4Address.parse(text.substring(0, dash)), Ipv4Address.parse(text.substring(dash + 1)));
        return new AddressPattern(Optional.of(range), port);
    }

    boolean matches(Ipv4Address address, int actualPort) {
        return range.map(r -> r.contains(address)).orElse(true) && (port.isEmpty() || port.getAsInt() == actualPort);
    }

    @Override
    public String toString() {
        if (range.isEmpty()) {
            return "any";
        }
        Ipv4Range r = range.get();
        String text = r.size() == 1 ? r.first().toString() : r.first() + "-" + r.last();
        return port.isPresent() ? text + ":" + port.getAsInt() : text;
    }
}
