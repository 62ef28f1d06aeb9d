package io.periscope.dataplane.iptables;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class PositionalEditTurnsTheCurrentListIntoTheDesiredOne {

    static Stream<Long> seeds() {
        return new Random(20261122L).longs(60).boxed();
    }

    /** Carries out the edit the way iptables-restore does: each rule number counts in the chain as it is then. */
    private static <T> List<T> apply(PositionalEdit<T> edit, List<T> current) {
        List<T> chain = new ArrayList<>(current);
        for (int position : edit.deletions()) {
            chain.remove(position - 1);
        }
        for (PositionalEdit.Insertion<T> insertion : edit.insertions()) {
            chain.add(insertion.position() - 1, insertion.entry());
        }
        return chain;
    }

    /** A few insertions, deletions and replacements, drawn from a small alphabet so entries repeat. */
    private static List<Integer> mutated(List<Integer> list, Random random, int changes) {
        List<Integer> result = new ArrayList<>(list);
        for (int k = 0; k < changes; k++) {
            int kind = random.nextInt(3);
            if (kind == 0 || result.isEmpty()) {
                result.add(random.nextInt(result.size() + 1), random.nextInt(8));
            } else if (kind == 1) {
                result.remove(random.nextInt(result.size()));
            } else {
                result.set(random.nextInt(result.size()), random.nextInt(8));
            }
        }
        return result;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aSmallChangeIsCarriedOutByItsEdit(long seed) {
        Random random = new Random(seed);
        List<Integer> current = IntStream.range(0, 10 + random.nextInt(200)).mapToObj(i -> random.nextInt(8)).toList();
        List<Integer> desired = mutated(current, random, 1 + random.nextInt(4));

        PositionalEdit<Integer> edit = PositionalEdit.between(current, desired).orElseThrow();

        assertThat(apply(edit, current)).isEqualTo(desired);
        assertThat(edit.size()).isLessThanOrEqualTo(2 * 4);
        assertThat(edit.deletions()).isSortedAccordingTo((a, b) -> Integer.compare(b, a));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void anyEditGivenIsCorrectAndLargeOnesAreRefused(long seed) {
        Random random = new Random(seed);
        List<Integer> current = IntStream.range(0, random.nextInt(40)).mapToObj(i -> random.nextInt(5)).toList();
        List<Integer> desired = mutated(current, random, random.nextInt(40));

        PositionalEdit.between(current, desired).ifPresentOrElse(
                edit -> {
                    assertThat(apply(edit, current)).isEqualTo(desired);
                    assertThat(edit.size()).isLessThanOrEqualTo(Math.max(current.size(), desired.size()) / 2);
                },
                () -> assertThat(desired).isNotEqualTo(current));
    }

    @Test
    void oneMoreRuleInALongListIsOneInsertionAtItsPlace() {
        List<Integer> current = IntStream.range(0, 10_000).boxed().toList();
        List<Integer> desired = new ArrayList<>(current);
        desired.add(4_000, -1);

        PositionalEdit<Integer> edit = PositionalEdit.between(current, desired).orElseThrow();

        assertThat(edit.deletions()).isEmpty();
        assertThat(edit.insertions()).containsExactly(new PositionalEdit.Insertion<>(4_001, -1));
    }

    @Test
    void replacingMostOfTheListIsLeftToARewrite() {
        assertThat(PositionalEdit.between(List.of(1, 2, 3, 4), List.of(5, 6, 7, 4))).isEmpty();
    }

}
