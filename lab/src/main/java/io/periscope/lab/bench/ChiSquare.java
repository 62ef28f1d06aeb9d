package io.periscope.lab.bench;

/**
 * The chi-square distribution's upper tail, for a goodness-of-fit test of counts: P(X >= x) with
 * {@code degrees} degrees of freedom, the regularized upper incomplete gamma function Q(d/2, x/2),
 * by its power series below a + 1 and its continued fraction (modified Lentz) above.
 */
final class ChiSquare {

    private static final double EPSILON = 1e-15;
    private static final int ITERATIONS = 1_000;

    private ChiSquare() {
    }

    static double upperTail(double x, int degrees) {
        if (degrees < 1) {
            throw new IllegalArgumentException("degrees of freedom must be at least 1, not " + degrees);
        }
        if (x <= 0) {
            return 1;
        }
        double a = degrees / 2.0;
        double z = x / 2.0;
        return z < a + 1 ? 1 - lowerSeries(a, z) : upperFraction(a, z);
    }

    /** P(a, z) by its series: e^-z z^a / Gamma(a + 1) * sum z^n / ((a+1)...(a+n)). */
    private static double lowerSeries(double a, double z) {
        double term = 1 / a;
        double sum = term;
        for (int n = 1; n < ITERATIONS; n++) {
            term *= z / (a + n);
            sum += term;
            if (Math.abs(term) < Math.abs(sum) * EPSILON) {
                break;
            }
        }
        return sum * Math.exp(-z + a * Math.log(z) - logGamma(a));
    }

    /** Q(a, z) by its continued fraction. */
    private static double upperFraction(double a, double z) {
        double tiny = 1e-300;
        double b = z + 1 - a;
        double c = 1 / tiny;
        double d = 1 / b;
        double h = d;
        for (int n = 1; n < ITERATIONS; n++) {
            double an = -n * (n - a);
            b += 2;
            d = an * d + b;
            d = Math.abs(d) < tiny ? tiny : d;
            c = b + an / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < EPSILON) {
                break;
            }
        }
        return Math.exp(-z + a * Math.log(z) - logGamma(a)) * h;
    }

    /** ln Gamma(a) for the half-integers and integers a test's degrees give, exactly by recursion from Gamma(1/2) and Gamma(1). */
    static double logGamma(double a) {
        double twice = 2 * a;
        if (twice != Math.rint(twice) || a <= 0) {
            throw new IllegalArgumentException("a must be a positive multiple of 1/2, not " + a);
        }
        double log = a == Math.rint(a) ? 0 : 0.5 * Math.log(Math.PI);
        for (double k = a == Math.rint(a) ? 1 : 0.5; k < a; k++) {
            log += Math.log(k);
        }
        return log;
    }
}
