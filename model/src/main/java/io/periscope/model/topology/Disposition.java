package io.periscope.model.topology;

import java.util.Locale;
import java.util.Optional;

/** How a path ends; also what a flow's {@code expect} names. */
public enum Disposition {
    DELIVERED, DROPPED, NO_ROUTE, UNREACHABLE;

    public String yamlName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Optional<Disposition> parse(String text) {
        for (Disposition d : values()) {
            if (d.yamlName().equals(text)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }
}
