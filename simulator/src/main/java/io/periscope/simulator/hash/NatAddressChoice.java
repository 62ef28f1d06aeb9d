package io.periscope.simulator.hash;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Range;

/**
 * Which address of an SNAT/DNAT range the kernel gives a new connection: nf_nat_core.c's
 * {@code find_best_ips_proto} for IPv4 without {@code --persistent}, in conntrack zone 0. The hash
 * covers the source and destination addresses only, so every connection between the same two
 * addresses gets the same address of the range.
 *
 * <p>The kernel hashes the address union {@code nf_inet_addr} (four u32 words, the three after an IPv4
 * address zero) as raw memory: an address in network byte order read as a u32 on a little-endian CPU,
 * which is {@link Integer#reverseBytes} of the big-endian value. The range bounds are in host order.
 */
public final class NatAddressChoice {

    private NatAddressChoice() {
    }

    /**
     * The address a connection from {@code source} to {@code destination} is translated to.
     *
     * @param source      the connection's source as the NAT hook sees it (the original source)
     * @param destination its destination as the NAT hook sees it (after any DNAT)
     */
    public static Ipv4Address choose(Ipv4Range range, Ipv4Address source, Ipv4Address destination) {
        if (range.first().equals(range.last())) {
            return range.first();
        }
        int hash = hash(source, destination);
        long distance = range.last().unsigned() - range.first().unsigned() + 1;
        return range.first().plus(reciprocalScale(hash, distance));
    }

    /** {@code jhash2(&tuple->src.u3, 4, tuple->dst.u3.all[0] ^ zone)} for zone 0. */
    public static int hash(Ipv4Address source, Ipv4Address destination) {
        return Jhash.jhash2(Integer.reverseBytes(source.bits()), 0, 0, 0, Integer.reverseBytes(destination.bits()));
    }

    /** The kernel's {@code reciprocal_scale}: maps a 32-bit value onto {@code 0..n-1} by multiplication. */
    public static long reciprocalScale(int value, long n) {
        return (Integer.toUnsignedLong(value) * n) >>> 32;
    }
}
