package io.periscope.lab.link;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** A delay line's holding time: delay plus a uniform sample in [-jitter, +jitter], clamped at 0 (as netem draws it without a table). */
class JitterIsUniformAroundTheDelayAndNeverNegative {

    private static final int SAMPLES = 200_000;

    @Test
    void withoutJitterEveryPacketIsHeldForTheDelay() {
        LinkDelay delay = new LinkDelay(Duration.ofMillis(20), Duration.ZERO);
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            assertThat(delay.holdNanos(random)).isEqualTo(20_000_000L);
        }
        assertThat(delay.jittered()).isFalse();
    }

    @Test
    void samplesSpreadEvenlyOverDelayPlusOrMinusJitter() {
        LinkDelay delay = new LinkDelay(Duration.ofMillis(20), Duration.ofMillis(5));
        SplittableRandom random = new SplittableRandom(42);
        long[] tenths = new long[10];
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        double sum = 0;
        for (int i = 0; i < SAMPLES; i++) {
            long hold = delay.holdNanos(random);
            min = Math.min(min, hold);
            max = Math.max(max, hold);
            sum += hold;
            tenths[(int) Math.min(9, (hold - 15_000_000L) / 1_000_000L)]++;
        }
        assertThat(min).isGreaterThanOrEqualTo(15_000_000L).isLessThan(15_010_000L);
        assertThat(max).isLessThanOrEqualTo(25_000_000L).isGreaterThan(24_990_000L);
        assertThat(sum / SAMPLES).isCloseTo(20_000_000.0, within(50_000.0));
        for (long tenth : tenths) {
            // 20,000 expected in each; the binomial's standard deviation is 134
            assertThat(tenth).isBetween(19_300L, 20_700L);
        }
    }

    @Test
    void aJitterLargerThanTheDelayClampsAtZero() {
        LinkDelay delay = new LinkDelay(Duration.ofMillis(1), Duration.ofMillis(3));
        SplittableRandom random = new SplittableRandom(7);
        long zeros = 0;
        for (int i = 0; i < SAMPLES; i++) {
            long hold = delay.holdNanos(random);
            assertThat(hold).isBetween(0L, 4_000_000L);
            zeros += hold == 0 ? 1 : 0;
        }
        // every sample at or below -1 ms: 2 of the 6 ms the sample spans
        assertThat(zeros / (double) SAMPLES).isCloseTo(1 / 3.0, within(0.01));
    }

    @Test
    void negativeDelaysAreRefused() {
        assertThatThrownBy(() -> new LinkDelay(Duration.ofMillis(-1), Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DelayLineSpec("ns", 1, Duration.ofMillis(5), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DelayLineSpec("ns", 65536, Duration.ofMillis(5), Duration.ZERO))
                .hasMessageContaining("65536");
        assertThat(new DelayLineSpec("ns", 3, Duration.ofMillis(5), null).jitter()).isZero();
        assertThat(new DelayLineSpec("ns", 3, Duration.ofMillis(5), null).key()).isEqualTo("ns/3");
    }
}
