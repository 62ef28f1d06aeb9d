package io.periscope.model.topology;

import java.util.Locale;
import java.util.Optional;

/** The IP protocols that Periscope models. */
public enum Protocol {
    TCP(6), UDP(17), ICMP(1);

    private final int number;

    Protocol(int number) {
        this.number = number;
    }

    /** The IP protocol number. */
    public int number() {
        return number;
    }

    public String lowerName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean hasPorts() {
        return this != ICMP;
    }

    public static Optional<Protocol> parse(String text) {
        for (Protocol p : values()) {
            if (p.name().equalsIgnoreCase(text)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
