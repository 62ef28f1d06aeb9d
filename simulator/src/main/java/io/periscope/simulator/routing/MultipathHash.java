package io.periscope.simulator.routing;

import io.periscope.simulator.hash.Jhash;
import io.periscope.simulator.trace.Packet;

import java.util.List;

/**
 * Picks one nexthop of a multipath route per flow, for when a single path per flow is wanted. The
 * kernel's L4 hash ({@code fib_multipath_hash_policy=1}) is seeded randomly at boot and cannot be
 * reproduced, so this is Periscope's own, documented hash: {@code jhash2} over the words
 * {@code src, dst, sport << 16 | dport, protocol} with initval 0, keeping 31 bits (the words of the
 * fields the host's policy leaves out are zero: the ports and protocol under policies 0 and 2). The choice then
 * follows the kernel's weighted selection: nexthop i owns the hash values up to
 * {@code round(cumulative weight_i * 2^31 / total weight) - 1}.
 */
public final class MultipathHash {

    private MultipathHash() {
    }

    public static int hash(Packet packet) {
        return Jhash.jhash2(packet.src().bits(), packet.dst().bits(), packet.sport() << 16 | (packet.dport() & 0xffff),
                packet.protocol().number(), 0) >>> 1;
    }

    /**
     * The same hash over only the fields the host's policy hashes (the others zero): under policies 0
     * and 2 the addresses alone, so every connection between two addresses takes one path, as in the
     * kernel; under policy 1 the whole 5-tuple, which is {@link #hash(Packet)}.
     */
    public static int hash(MultipathHashSettings hashing, Packet packet) {
        if (hashing.policy() == 1) {
            return hash(packet);
        }
        int fields = hashing.policy() == 3 ? hashing.fields() : MultipathHashSettings.SRC_IP | MultipathHashSettings.DST_IP;
        boolean ports = packet.protocol().hasPorts();
        int sport = ports && (fields & MultipathHashSettings.SRC_PORT) != 0 ? packet.sport() : 0;
        int dport = ports && (fields & MultipathHashSettings.DST_PORT) != 0 ? packet.dport() : 0;
        return Jhash.jhash2((fields & MultipathHashSettings.SRC_IP) != 0 ? packet.src().bits() : 0,
                (fields & MultipathHashSettings.DST_IP) != 0 ? packet.dst().bits() : 0, sport << 16 | (dport & 0xffff),
                (fields & MultipathHashSettings.IP_PROTO) != 0 ? packet.protocol().number() : 0, 0) >>> 1;
    }

    /** Index of the nexthop {@code packet}'s flow takes. */
    public static int select(List<CompiledNexthop> nexthops, Packet packet) {
        return select(nexthops, hash(packet));
    }

    static int select(List<CompiledNexthop> nexthops, int hash31) {
        long total = 0;
        for (CompiledNexthop nh : nexthops) {
            total += Math.max(1, nh.weight());
        }
        long cumulative = 0;
        for (int i = 0; i < nexthops.size(); i++) {
            cumulative += Math.max(1, nexthops.get(i).weight());
            long upperBound = Math.round((double) (cumulative << 31) / total) - 1;
            if (hash31 <= upperBound) {
                return i;
            }
        }
        return nexthops.size() - 1;
    }
}
