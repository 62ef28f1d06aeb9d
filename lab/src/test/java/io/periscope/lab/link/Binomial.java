package io.periscope.lab.link;

/**
 * The range a binomial count falls in with a given confidence: for {@code n} independent trials of
 * probability {@code p}, the smallest {@code low} and largest {@code high} that leave at most
 * {@code (1 - confidence) / 2} of the probability below and above, from the exact distribution.
 */
record Binomial(int n, double p) {

    record Range(int low, int high) {
        boolean contains(long count) {
            return count >= low && count <= high;
        }
    }

    Range central(double confidence) {
        double tail = (1 - confidence) / 2;
        double[] pmf = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            pmf[k] = Math.exp(logChoose(n, k) + (k == 0 ? 0 : k * Math.log(p)) + (n - k == 0 ? 0 : (n - k) * Math.log1p(-p)));
        }
        int low = 0;
        double below = 0;
        while (low < n && below + pmf[low] <= tail) {
            below += pmf[low++];
        }
        int high = n;
        double above = 0;
        while (high > 0 && above + pmf[high] <= tail) {
            above += pmf[high--];
        }
        return new Range(low, high);
    }

    private static double logChoose(int n, int k) {
        return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
    }

    private static double logFactorial(int n) {
        double sum = 0;
        for (int i = 2; i <= n; i++) {
            sum += Math.log(i);
        }
        return sum;
    }
}
