package io.periscope.lab.bench;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The upper tail at the critical values every chi-square table prints, on both sides of a + 1 (series and continued fraction). */
class ChiSquareTailsAreTheTablesCriticalValues {

    @ParameterizedTest(name = "P(X >= {0}) with {1} degrees = {2}")
    @CsvSource({
            "3.841, 1, 0.05", "6.635, 1, 0.01", "5.991, 2, 0.05", "9.210, 2, 0.01", "7.815, 3, 0.05", "11.345, 3, 0.01",
            "0.584, 3, 0.90", "1.064, 4, 0.90", "13.277, 4, 0.01", "0.455, 1, 0.50"})
    void tailsMatchTheTable(double x, int degrees, double tail) {
        assertThat(ChiSquare.upperTail(x, degrees)).isCloseTo(tail, within(5e-4));
    }

    @Test
    void twoDegreesAreAnExponential() {
        for (double x = 0.1; x < 40; x *= 1.7) {
            assertThat(ChiSquare.upperTail(x, 2)).isCloseTo(Math.exp(-x / 2), within(1e-12));
        }
    }

    @Test
    void nothingAboveZeroIsCertain() {
        assertThat(ChiSquare.upperTail(0, 3)).isEqualTo(1);
        assertThatThrownBy(() -> ChiSquare.upperTail(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
