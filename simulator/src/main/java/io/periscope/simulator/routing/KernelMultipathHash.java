package io.periscope.simulator.routing;

import io.periscope.simulator.trace.Packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The hash Linux computes to pick a nexthop for a forwarded packet with L4 multipath hashing
 * ({@code fib_multipath_hash_policy=1}, kernel 6.11 and later with {@code fib_multipath_hash_seed}
 * set): {@code fib_multipath_hash} over {@code struct flow_keys} holding only the protocol, the ports
 * and the IPv4 addresses, sorted so both directions hash alike ({@code __flow_hash_consistentify}),
 * hashed with SipHash-2-4 under the key {@code (seed << 32 | seed)} twice, and shifted right by one.
 *
 * <p>Unlike {@link MultipathHash}, Periscope's own documented hash, this one reproduces the kernel's
 * choice exactly, but only where the seed is known: a namespace whose seed was never set hashes with
 * a random one drawn at boot. The lab sets every node's seed, so its choices can be predicted per
 * flow. It also holds only for packets that carry no hash yet: a packet from a socket with a flow
 * hash of its own (a connected UDP socket, any TCP socket) is routed by that random hash instead.
 */
public final class KernelMultipathHash {

    /** {@code sizeof(struct flow_keys) - offsetof(basic) - (sizeof(addrs) - sizeof(v4addrs))} on x86-64. */
    private static final int HASHED_BYTES = 48;
    private static final int IP_PROTO = 2;
    private static final int PORTS = 28;
    private static final int ADDRESSES = 36;

    private KernelMultipathHash() {
    }

    /** The 31-bit value the kernel compares with the nexthops' upper bounds (or takes modulo a resilient group's buckets). */
    public static int hash(int seed, Packet packet) {
        int src = packet.src().bits();
        int dst = packet.dst().bits();
        int sport = packet.protocol().hasPorts() ? packet.sport() : 0;
        int dport = packet.protocol().hasPorts() ? packet.dport() : 0;
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
        keys.put(IP_PROTO, (byte) packet.protocol().number());
        keys.putShort(PORTS, (short) sport).putShort(PORTS + 2, (short) dport);
        keys.putInt(ADDRESSES, src).putInt(ADDRESSES + 4, dst);
        long key = Integer.toUnsignedLong(seed) << 32 | Integer.toUnsignedLong(seed);
        int hash = (int) SipHash.hash24(keys.array(), key, key);
        return (hash == 0 ? 1 : hash) >>> 1;
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
