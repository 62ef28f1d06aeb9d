package io.periscope.lab.link;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The delay line's histogram of holding times: buckets that tile the range, percentiles within 0.8%, exact mean and extremes. */
class HoldingTimesReportPercentilesWithinOnePercent {

    @Test
    void everyValueFallsInTheBucketWhoseRangeHoldsIt() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            long value = random.nextLong(1L << random.nextInt(1, 40));
            int index = HoldingTimes.index(value);
            assertThat(HoldingTimes.lowest(index)).isLessThanOrEqualTo(value);
            assertThat(HoldingTimes.lowest(index + 1)).isGreaterThan(value);
        }
        for (long value = 0; value < 2_000; value++) {
            assertThat(HoldingTimes.index(value + 1)).isBetween(HoldingTimes.index(value), HoldingTimes.index(value) + 1);
        }
    }

    @Test
    void percentilesOfAnEvenSpreadAreWhereTheyShouldBe() {
        HoldingTimes times = new HoldingTimes();
        for (long micros = 1; micros <= 100_000; micros++) {
            times.record(micros * 1_000);
        }
        assertThat(times.percentile(0.5)).isCloseTo(50_000_000L, within(400_000L));
        assertThat(times.percentile(0.99)).isCloseTo(99_000_000L, within(800_000L));
        HoldingSummary summary = times.summary();
        assertThat(summary.count()).isEqualTo(100_000);
        assertThat(summary.meanMicros()).isEqualTo(50_000.5);
        assertThat(summary.minMicros()).isEqualTo(1.0);
        assertThat(summary.maxMicros()).isEqualTo(100_000.0);
        assertThat(summary.p90Micros()).isCloseTo(90_000.0, within(720.0));
    }

    @Test
    void aSingleValueIsReportedExactly() {
        HoldingTimes times = new HoldingTimes();
        times.record(20_054_321);
        HoldingSummary summary = times.summary();
        assertThat(summary.p50Micros()).isEqualTo(20_054.3);
        assertThat(summary.p99Micros()).isEqualTo(20_054.3);
        assertThat(summary.meanMicros()).isEqualTo(20_054.3);
    }

    @Test
    void nothingRecordedIsAllZeroesAndOutOfRangeValuesAreClamped() {
        HoldingTimes times = new HoldingTimes();
        assertThat(times.summary()).isEqualTo(HoldingSummary.EMPTY);
        times.record(-5);
        times.record(Long.MAX_VALUE);
        assertThat(times.summary().minMicros()).isZero();
        assertThat(times.summary().maxMicros()).isEqualTo(((1L << 40) - 1) / 1000.0, within(0.1));
        assertThat(times.count()).isEqualTo(2);
    }
}
