package io.periscope.lab.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Jain's index: 1 for equal shares, 1/n when one flow takes everything, (sum x)^2 / (n sum x^2) in between. */
class JainIndexRatesEqualSharesOneAndAHogOneOverN {

    @Test
    void equalRatesAreFair() {
        assertThat(JainIndex.of(1e9, 1e9, 1e9, 1e9)).isCloseTo(1, within(1e-12));
        assertThat(JainIndex.of(42)).isCloseTo(1, within(1e-12));
    }

    @Test
    void oneFlowTakingEverythingIsOneOverN() {
        assertThat(JainIndex.of(8e9, 0, 0, 0)).isCloseTo(0.25, within(1e-12));
        assertThat(JainIndex.of(1, 0)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void unequalRatesFallInBetween() {
        // (1 + 2 + 3)^2 / (3 * (1 + 4 + 9)) = 36 / 42
        assertThat(JainIndex.of(1, 2, 3)).isCloseTo(36.0 / 42, within(1e-12));
        // Scaling every rate changes nothing.
        assertThat(JainIndex.of(1e6, 2e6, 3e6)).isCloseTo(36.0 / 42, within(1e-12));
    }

    @Test
    void noFlowMovingAnythingIsZeroAndNonsenseIsRefused() {
        assertThat(JainIndex.of(0, 0)).isZero();
        assertThatThrownBy(JainIndex::of).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JainIndex.of(1, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JainIndex.of(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
