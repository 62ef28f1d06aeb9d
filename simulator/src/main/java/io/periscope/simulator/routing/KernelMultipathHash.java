package io.periscope.simulator.routing;

import io.periscope.simulator.hash.Jhash;
import io.periscope.simulator.trace.Packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The hash Linux computes to pick a nexthop ({@code fib_multipath_hash} in net/ipv4/route.c, kernel
 * 6.11 and later with {@code fib_multipath_hash_seed} set), for each policy of
 * {@code fib_multipath_hash_policy}. Every policy hashes a {@code struct flow_keys} with
 * {@code flow_hash_from_keys_seed}: the fields sorted so both directions hash alike
 * ({@code __flow_hash_consistentify}), SipHash-2-4 under the key {@code (seed << 32 | seed)} twice,
 * 0 made 1; what differs is which fields are filled in, the rest being zero:
 * <ul>
 *   <li>policy 0: the source and destination address ({@code ip_multipath_l3_keys});
 *   <li>policy 1: the protocol, the ports and the addresses;
 *   <li>policy 2: the addresses of the innermost packet the flow dissector finds; it follows GRE and
 *       IP in IP but not UDP tunnels, so for every packet the simulator routes (VXLAN, WireGuard and
 *       ESP in UDP are UDP to it) these are the packet's own addresses, as policy 0;
 *   <li>policy 3: the outer fields {@code fib_multipath_hash_fields} selects; a forwarded packet's
 *       hash is then folded with the inner one ({@code jhash_2words(outer, inner, 0)}), which is 0
 *       without an encapsulation the dissector follows; a locally generated packet's is not
 *       ({@code fib_multipath_custom_hash_fl4}).
 * </ul>
 * The result is shifted right by one.
 *
 * <p>Unlike {@link MultipathHash}, Periscope's own documented hash, this one reproduces the kernel's
 * choice exactly, but only where the seed is known: a namespace whose seed was never set hashes with
 * a random one drawn at boot. The lab sets every node's seed, so its choices can be predicted per
 * flow. Under policy 1 it also holds only for packets that carry no hash yet: a packet from a socket
 * with a flow hash of its own (a connected UDP socket, any TCP socket) is routed by that random hash
 * instead (policy 1 alone takes {@code skb->l4_hash} as it is). Checked against the kernel for every
 * policy by {@code KernelChoicesAreTheSimulatorsChoices}.
 */
public final class KernelMultipathHash {

    /** {@code sizeof(struct flow_keys) - offsetof(basic) - (sizeof(addrs) - sizeof(v4addrs))} on x86-64. */
    private static final int HASHED_BYTES = 48;
    private static final int IP_PROTO = 2;
    private static final int PORTS = 28;
    private static final int ADDRESSES = 36;

    private KernelMultipathHash() {
    }

    /** The 31-bit hash of a forwarded packet under policy 1 (L4), what Periscope programs by default. */
    public static int hash(int seed, Packet packet) {
        return hash(MultipathHashSettings.L4, seed, packet, true);
    }

    /**
     * The 31-bit value the kernel compares with the nexthops' upper bounds (or takes modulo a resilient
     * group's buckets).
     *
     * @param forwarded whether the host forwards the packet (routing with the packet in hand) rather
     *                  than sends it from a socket of its own (routing a flow); only policy 3 tells them apart
     */
    public static int hash(MultipathHashSettings settings, int seed, Packet packet, boolean forwarded) {
        boolean ports = packet.protocol().hasPorts();
        int hash = switch (settings.policy()) {
            case 0, 2 -> flowHash(seed, 0, packet.src().bits(), packet.dst().bits(), 0, 0);
            case 1 -> flowHash(seed, packet.protocol().number(), packet.src().bits(), packet.dst().bits(),
                    ports ? packet.sport() : 0, ports ? packet.dport() : 0);
            default -> {
                int fields = settings.fields();
                int outer = (fields & MultipathHashSettings.OUTER_MASK) == 0 ? 0 : flowHash(seed,
                        (fields & MultipathHashSettings.IP_PROTO) != 0 ? packet.protocol().number() : 0,
                        (fields & MultipathHashSettings.SRC_IP) != 0 ? packet.src().bits() : 0,
                        (fields & MultipathHashSettings.DST_IP) != 0 ? packet.dst().bits() : 0,
                        ports && (fields & MultipathHashSettings.SRC_PORT) != 0 ? packet.sport() : 0,
                        ports && (fields & MultipathHashSettings.DST_PORT) != 0 ? packet.dport() : 0);
                // No inner flow: the dissector finds no encapsulation it follows, so the inner hash is 0.
                yield forwarded ? Jhash.jhash2words(outer, 0, 0) : outer;
            }
        };
        return hash >>> 1;
    }

    /** {@code flow_hash_from_keys_seed} of keys holding these fields (zero for those left out). */
    private static int flowHash(int seed, int protocol, int src, int dst, int sport, int dport) {
        // The kernel compares the big-endian fields as the little-endian machine reads them.
        if (Integer.compareUnsigned(Integer.reverseBytes(dst), Integer.reverseBytes(src)) < 0) {
            int swap = src;
            src = dst;
            dst = swap;
        }
        if (Short.toUnsignedInt(Short.reverseBytes((short) dport)) < Short.toUnsignedInt(Short.reverseBytes((short) sport))) {
            int swap = sport;
            sport = dport;
            dport = swap;
        }
        ByteBuffer keys = ByteBuffer.allocate(HASHED_BYTES).order(ByteOrder.BIG_ENDIAN);
        keys.put(IP_PROTO, (byte) protocol);
        keys.putShort(PORTS, (short) sport).putShort(PORTS + 2, (short) dport);
        keys.putInt(ADDRESSES, src).putInt(ADDRESSES + 4, dst);
        long key = Integer.toUnsignedLong(seed) << 32 | Integer.toUnsignedLong(seed);
        int hash = (int) SipHash.hash24(keys.array(), key, key);
        return hash == 0 ? 1 : hash;
    }

    /** The index of the nexthop a hash-threshold choice (a multipath route, a plain nexthop group) takes. */
    public static int select(java.util.List<CompiledNexthop> nexthops, int hash31) {
        return MultipathHash.select(nexthops, hash31);
    }

    /** SipHash-2-4 as the kernel's {@code siphash()}: little-endian words, the length in the last byte. */
    static final class SipHash {

        private SipHash() {
        }

        static long hash24(byte[] message, long k0, long k1) {
            long[] v = {0x736f6d6570736575L ^ k0, 0x646f72616e646f6dL ^ k1, 0x6c7967656e657261L ^ k0, 0x7465646279746573L ^ k1};
            ByteBuffer words = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
            int whole = message.length - message.length % 8;
            for (int i = 0; i < whole; i += 8) {
                absorb(v, words.getLong(i));
            }
            long last = (long) message.length << 56;
            for (int i = 0; i < message.length % 8; i++) {
                last |= (long) (message[whole + i] & 0xff) << (8 * i);
            }
            absorb(v, last);
            v[2] ^= 0xff;
            for (int round = 0; round < 4; round++) {
                round(v);
            }
            return v[0] ^ v[1] ^ v[2] ^ v[3];
        }

        private static void absorb(long[] v, long word) {
            v[3] ^= word;
            round(v);
            round(v);
            v[0] ^= word;
        }

        private static void round(long[] v) {
            v[0] += v[1];
            v[1] = Long.rotateLeft(v[1], 13);
            v[1] ^= v[0];
            v[0] = Long.rotateLeft(v[0], 32);
            v[2] += v[3];
            v[3] = Long.rotateLeft(v[3], 16);
            v[3] ^= v[2];
            v[0] += v[3];
            v[3] = Long.rotateLeft(v[3], 21);
            v[3] ^= v[0];
            v[2] += v[1];
            v[1] = Long.rotateLeft(v[1], 17);
            v[1] ^= v[2];
            v[2] = Long.rotateLeft(v[2], 32);
        }
    }
}
