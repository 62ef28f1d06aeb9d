package io.periscope.simulator.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ipset.IpSet;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * An ipset for fast membership tests: single addresses in an open-addressing hash table of their
 * bits (one probe or two per test, where a sorted array took a binary search through memory on
 * every rule that matches a set), networks in a list.
 */
final class CompiledIpSet {

    /** Slots of {@link #table} hold an address's bits; 0 marks a free slot, so 0.0.0.0 has a flag of its own. */
    private final int[] table;
    private final int mask;
    private final boolean hasZero;
    private final Ipv4Prefix[] networks;

    CompiledIpSet(IpSet set) {
        Set<Integer> single = new LinkedHashSet<>();
        List<Ipv4Prefix> nets = new ArrayList<>();
        for (Ipv4Prefix member : set.members()) {
            if (member.length() == 32) {
                single.add(member.network().bits());
            } else {
                nets.add(member);
            }
        }
        // At most half full, so a miss ends at a free slot after a probe or two.
        int size = Integer.highestOneBit(Math.max(2, single.size()) * 2) * 2;
        table = new int[size];
        mask = size - 1;
        boolean zero = false;
        for (int bits : single) {
            if (bits == 0) {
                zero = true;
                continue;
            }
            int i = slot(bits);
            while (table[i] != 0) {
                i = (i + 1) & mask;
            }
            table[i] = bits;
        }
        hasZero = zero;
        networks = nets.toArray(Ipv4Prefix[]::new);
    }

    private int slot(int bits) {
        // Fibonacci hashing: addresses of one subnet differ in their low bits, which this spreads.
        return (bits * 0x9E3779B9) >>> 16 & mask;
    }

    boolean contains(Ipv4Address address) {
        int bits = address.bits();
        if (bits == 0 ? hasZero : holds(bits)) {
            return true;
        }
        for (Ipv4Prefix net : networks) {
            if (net.contains(address)) {
                return true;
            }
        }
        return false;
    }

    private boolean holds(int bits) {
        for (int i = slot(bits); ; i = (i + 1) & mask) {
            int slot = table[i];
            if (slot == bits) {
                return true;
            }
            if (slot == 0) {
                return false;
            }
        }
    }
}
