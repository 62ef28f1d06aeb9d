package io.periscope.dataplane.iproute;

import java.util.OptionalInt;

/** Routing table names iproute2 prints for the kernel's reserved tables. */
final class RouteTables {

    static final int DEFAULT = 253;
    static final int MAIN = 254;
    static final int LOCAL = 255;

    private RouteTables() {
    }

    /** A table as {@code ip -j} prints it: a number or a reserved name; other names are unknown here. */
    static OptionalInt parse(String text) {
        return switch (text) {
            case "main" -> OptionalInt.of(MAIN);
            case "local" -> OptionalInt.of(LOCAL);
            case "default" -> OptionalInt.of(DEFAULT);
            default -> {
                try {
                    yield OptionalInt.of(Integer.parseUnsignedInt(text));
                } catch (NumberFormatException e) {
                    yield OptionalInt.empty();
                }
            }
        };
    }
}
