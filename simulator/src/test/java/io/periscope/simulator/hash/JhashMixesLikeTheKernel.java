package io.periscope.simulator.hash;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The expected values below were worked out step by step from the description of lookup3's
 * {@code hashword} (initial state, one {@code __jhash_mix} per three words, the tail and
 * {@code __jhash_final}), outside this code base. The lab compares SNAT choices with a real kernel.
 */
class JhashMixesLikeTheKernel {

    @Test
    void anEmptyKeyIsTheInitialStateUnmixed() {
        // a = b = c = 0xdeadbeef + (0 << 2) + initval, and length 0 returns c without mixing.
        assertThat(Jhash.jhash2(new int[0], 0x12345678)).isEqualTo(0xdeadbeef + 0x12345678);
        assertThat(Jhash.jhash2(new int[0], 0)).isEqualTo(0xdeadbeef);
    }

    @Test
    void shortKeysGoThroughTheFinalMixOnly() {
        assertThat(Jhash.jhash2(new int[] {1}, 0)).isEqualTo(0x72a82a9b);
        assertThat(Jhash.jhash2(new int[] {1, 2, 3}, 0)).isEqualTo(0xa46158f5);
    }

    @Test
    void fourWordKeysMixOnceAndFinishWithTheFourthWord() {
        assertThat(Jhash.jhash2(new int[] {1, 2, 3, 4}, 0)).isEqualTo(0x66491246);
        assertThat(Jhash.jhash2(1, 2, 3, 4, 0)).isEqualTo(0x66491246);
    }

    @Test
    void theAllocationFreeFourWordFormAgreesWithTheArrayForm() {
        Random random = new Random(4);
        for (int i = 0; i < 1000; i++) {
            int a = random.nextInt();
            int b = random.nextInt();
            int c = random.nextInt();
            int d = random.nextInt();
            int init = random.nextInt();
            assertThat(Jhash.jhash2(a, b, c, d, init)).isEqualTo(Jhash.jhash2(new int[] {a, b, c, d}, init));
        }
    }

    @Test
    void everyWordAndTheInitvalChangeTheHash() {
        int base = Jhash.jhash2(new int[] {5, 6, 7, 8, 9}, 11);
        Set<Integer> variants = new HashSet<>();
        variants.add(base);
        for (int word = 0; word < 5; word++) {
            int[] key = {5, 6, 7, 8, 9};
            key[word] ^= 1;
            variants.add(Jhash.jhash2(key, 11));
        }
        variants.add(Jhash.jhash2(new int[] {5, 6, 7, 8, 9}, 12));
        assertThat(variants).hasSize(7);
    }
}
