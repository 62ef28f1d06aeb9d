package io.periscope.simulator.engine;

import java.util.Collection;
import java.util.Optional;

/**
 * A host's device names, each with the optional a hop carries it as and its reverse-path filter, in
 * one open-addressed table: every hop asks for both by name, and a {@link java.util.HashMap} lookup
 * (a node per entry, boxed values) was a twentieth of a trace. The names a walk asks for are mostly
 * the plan's own string objects, so a slot is compared by identity before by content.
 */
final class DeviceTable {

    private final String[] names;
    private final Optional<String>[] optionals;
    private final int[] rpFilters;
    private final int mask;

    /** @param rpFilters each name's rp_filter, in the order of {@code names} */
    @SuppressWarnings("unchecked")
    DeviceTable(Collection<String> names, int[] rpFilters) {
        int capacity = Integer.highestOneBit(Math.max(4, names.size() * 2 + 1)) << 1;
        this.names = new String[capacity];
        this.optionals = new Optional[capacity];
        this.rpFilters = new int[capacity];
        this.mask = capacity - 1;
        int i = 0;
        for (String name : names) {
            int slot = free(name);
            this.names[slot] = name;
            this.optionals[slot] = Optional.of(name);
            this.rpFilters[slot] = rpFilters[i++];
        }
    }

    private int free(String name) {
        int slot = spread(name.hashCode()) & mask;
        while (names[slot] != null) {
            if (names[slot].equals(name)) {
                throw new IllegalArgumentException("device " + name + " twice");
            }
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }

    /** The slot of {@code name}, or -1 when the host has no such device (or {@code name} is null). */
    int slot(String name) {
        if (name == null) {
            return -1;
        }
        int slot = spread(name.hashCode()) & mask;
        for (String known; (known = names[slot]) != null; slot = (slot + 1) & mask) {
            if (known == name || known.equals(name)) {
                return slot;
            }
        }
        return -1;
    }

    /** {@code name} as an optional, the table's own when it knows the device; empty for null. */
    Optional<String> optional(String name) {
        if (name == null) {
            return Optional.empty();
        }
        int slot = slot(name);
        return slot >= 0 ? optionals[slot] : Optional.of(name);
    }

    /** The rp_filter of {@code name}, or {@code others} when the host has no such device. */
    int rpFilter(String name, int others) {
        int slot = slot(name);
        return slot >= 0 ? rpFilters[slot] : others;
    }
}
