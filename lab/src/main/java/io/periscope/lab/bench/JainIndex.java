package io.periscope.lab.bench;

/**
 * Jain's fairness index of a set of rates, (sum x)^2 / (n * sum x^2) (Jain, Chiu and Hawe, 1984):
 * 1 when every flow gets the same rate, 1/n when one flow gets everything, and in between the
 * fraction of flows that, equally served, would make the same total. A flow that moved nothing counts
 * as a rate of 0: it lowers the index, as it should.
 */
public final class JainIndex {

    private JainIndex() {
    }

    /**
     * @return the index, from 1/n to 1; 0 when no flow moved anything (no share to be fair about)
     * @throws IllegalArgumentException for no rates, or a negative or non-finite one
     */
    public static double of(double... rates) {
        if (rates.length == 0) {
            throw new IllegalArgumentException("Jain's index needs at least one rate");
        }
        double sum = 0;
        double squares = 0;
        for (double rate : rates) {
            if (!Double.isFinite(rate) || rate < 0) {
                throw new IllegalArgumentException("a rate must be finite and not negative, not " + rate);
            }
            sum += rate;
            squares += rate * rate;
        }
        // At most 1 (Cauchy-Schwarz); equal rates may round a hair above it.
        return squares == 0 ? 0 : Math.min(1, sum * sum / (rates.length * squares));
    }
}
