package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;

import java.util.Objects;

/**
 * Values by IPv4 address, for lookups the planner makes once per pod. An {@link Ipv4Address} hashes
 * to its own bits, and a cluster's pod addresses (10.0.&lt;node&gt;.&lt;n&gt;: the same low byte on
 * every node) share the few bits a {@link java.util.HashMap} indexes by: a large set's 2,000 pod
 * addresses fell into 320 of its 4,096 buckets, and walking those chains was a twentieth of planning.
 * Here the address is spread over the table by a multiplier first, and the table holds the bits
 * themselves, so a lookup makes no object and follows no chain. No removal, no null values.
 *
 * @param <V> the value type
 */
final class AddressMap<V> {

    /** The keys' bits, where {@link #values} has a value. */
    private int[] addresses = new int[16];
    /** A value per used slot, {@code null} where the slot is free; the length is a power of two. */
    private Object[] values = new Object[16];
    private int size;

    /** The value of {@code address}, or {@code null}. */
    @SuppressWarnings("unchecked")
    V get(Ipv4Address address) {
        int bits = address.bits();
        int mask = values.length - 1;
        for (int slot = slot(bits, mask); values[slot] != null; slot = (slot + 1) & mask) {
            if (addresses[slot] == bits) {
                return (V) values[slot];
            }
        }
        return null;
    }

    /** Gives {@code address} the value {@code value} (in place of any it had). */
    void put(Ipv4Address address, V value) {
        Objects.requireNonNull(value);
        if ((size + 1) * 2 > values.length) {
            grow();
        }
        if (insert(address.bits(), value)) {
            size++;
        }
    }

    int size() {
        return size;
    }

    /** Puts {@code value} in the slot of {@code bits}; whether that slot was free. */
    private boolean insert(int bits, Object value) {
        int mask = values.length - 1;
        int slot = slot(bits, mask);
        while (values[slot] != null) {
            if (addresses[slot] == bits) {
                values[slot] = value;
                return false;
            }
            slot = (slot + 1) & mask;
        }
        addresses[slot] = bits;
        values[slot] = value;
        return true;
    }

    private void grow() {
        int[] oldAddresses = addresses;
        Object[] oldValues = values;
        addresses = new int[oldValues.length * 2];
        values = new Object[oldValues.length * 2];
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) {
                insert(oldAddresses[i], oldValues[i]);
            }
        }
    }

    /** The multiplier is 2^32 divided by the golden ratio: consecutive and strided addresses land far apart. */
    private static int slot(int bits, int mask) {
        int spread = bits * 0x9E3779B9;
        return (spread ^ (spread >>> 16)) & mask;
    }
}
