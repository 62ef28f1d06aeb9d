package io.periscope.simulator.hash;

/**
 * Bob Jenkins' lookup3 {@code hashword}, the function the Linux kernel calls {@code jhash2}
 * (include/linux/jhash.h). NAT uses it to pick an address from an SNAT range, so the simulator has to
 * compute exactly the same 32 bits; Java's wrapping int arithmetic is the kernel's u32 arithmetic.
 */
public final class Jhash {

    /** The kernel's {@code JHASH_INITVAL}, an arbitrary starting value. */
    public static final int INITVAL = 0xdeadbeef;

    private Jhash() {
    }

    /** {@code jhash2(key, key.length, initval)}. */
    public static int jhash2(int[] key, int initval) {
        int length = key.length;
        int a = INITVAL + (length << 2) + initval;
        int b = a;
        int c = a;
        int k = 0;
        while (length > 3) {
            a += key[k];
            b += key[k + 1];
            c += key[k + 2];
            // mix
            a -= c; a ^= Integer.rotateLeft(c, 4); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 6); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 8); b += a;
            a -= c; a ^= Integer.rotateLeft(c, 16); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 19); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 4); b += a;
            length -= 3;
            k += 3;
        }
        switch (length) {
            case 3:
                c += key[k + 2];
                // fall through: the tail adds the remaining words before the final mix
            case 2:
                b += key[k + 1];
                // fall through
            case 1:
                a += key[k];
                return finalMix(a, b, c);
            default:
                return c;
        }
    }

    /** {@code jhash2} of four words without allocating, for the hot paths (IPv4 addresses as {@code nf_inet_addr}). */
    public static int jhash2(int k0, int k1, int k2, int k3, int initval) {
        int a = INITVAL + (4 << 2) + initval;
        int b = a;
        int c = a;
        a += k0;
        b += k1;
        c += k2;
        a -= c; a ^= Integer.rotateLeft(c, 4); c += b;
        b -= a; b ^= Integer.rotateLeft(a, 6); a += c;
        c -= b; c ^= Integer.rotateLeft(b, 8); b += a;
        a -= c; a ^= Integer.rotateLeft(c, 16); c += b;
        b -= a; b ^= Integer.rotateLeft(a, 19); a += c;
        c -= b; c ^= Integer.rotateLeft(b, 4); b += a;
        a += k3;
        return finalMix(a, b, c);
    }

    /**
     * {@code jhash_2words(a, b, initval)}: {@code __jhash_nwords(a, b, 0, initval + JHASH_INITVAL + (2 << 2))},
     * each word plus the start value, then the final mix. The kernel folds the outer and inner
     * multipath hashes of policy 3 with it.
     */
    public static int jhash2words(int a, int b, int initval) {
        int start = initval + INITVAL + (2 << 2);
        return finalMix(a + start, b + start, start);
    }

    private static int finalMix(int a, int b, int c) {
        c ^= b; c -= Integer.rotateLeft(b, 14);
        a ^= c; a -= Integer.rotateLeft(c, 11);
        b ^= a; b -= Integer.rotateLeft(a, 25);
        c ^= b; c -= Integer.rotateLeft(b, 16);
        a ^= c; a -= Integer.rotateLeft(c, 4);
        b ^= a; b -= Integer.rotateLeft(a, 14);
        c ^= b; c -= Integer.rotateLeft(b, 24);
        return c;
    }
}
