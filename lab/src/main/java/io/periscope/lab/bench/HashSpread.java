package io.periscope.lab.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How many of the bench's flows each gateway should carry under the hash policy, as a statement of
 * statistics rather than of the simulator: a multipath hash spreads its inputs over k equal nexthops
 * like k-sided dice, so each gateway expects n/k of the n flows, give or take the binomial sampling
 * error sqrt(n p (1-p)) with p = 1/k. What is thrown is the hash's input: with L4 hashing
 * ({@code l4}, {@code l4-inner}) every flow is its own throw; with L3 hashing ({@code l3},
 * {@code l3-inner}) every flow between the same two addresses hashes alike, so the pod pair is the
 * throw and carries all its flows with it, and the error grows to sqrt(p (1-p) sum s_i^2) over the
 * pairs' flow counts s_i (with one pair, all flows on one gateway). The simulator's prediction (which
 * gateway each flow takes, for its own 5-tuple) is compared with the measurement flow by flow; this
 * says whether the measured spread is what hashing makes likely at all.
 */
public final class HashSpread {

    /** The level below which a side's measured spread is called uneven: one run in a hundred by chance. */
    public static final double SIGNIFICANCE = 0.01;

    /** The kernel's {@code fib_multipath_hash_policy} values by the names the topology file gives them. */
    public static String policyName(String kernelValue) {
        return switch (kernelValue == null ? "0" : kernelValue.strip()) {
            case "0" -> "l3";
            case "1" -> "l4";
            case "2" -> "l3-inner";
            case "3" -> "l4-inner";
            default -> "policy " + kernelValue;
        };
    }

    /** Whether a policy hashes ports: each flow is then its own throw. */
    public static boolean perFlow(String policy) {
        return policy.equals("l4") || policy.equals("l4-inner");
    }

    /**
     * One side of one cluster: the gateways its flows leave by (egress) or enter by (ingress).
     *
     * @param side          {@code egress}: the gateways the flows leave their cluster by; {@code ingress}: those they enter it by
     * @param chosenBy      the cluster whose nodes choose, and whose policy counts: the clients' cluster on both sides
     * @param policy        the policy of the nodes that choose
     * @param flows         n, the flows that cross this side
     * @param draws         the hash's draws: the flows under L4, the pod pairs under L3
     * @param expected      n/k, per gateway
     * @param samplingError one standard deviation of a gateway's count
     * @param measured      flows measured per gateway (a flow that crossed two counts at both)
     * @param predicted     flows the simulator predicts per gateway (its expected count when a choice follows a socket's random hash)
     */
    public record Spread(String cluster, String side, String chosenBy, String policy, List<String> gateways, int flows, int draws, double expected,
                         double samplingError, Map<String, Integer> measured, Map<String, Double> predicted) {

        public Spread {
            gateways = List.copyOf(gateways);
            measured = new LinkedHashMap<>(measured);
            predicted = new LinkedHashMap<>(predicted);
        }

        /** How far a gateway's measured count lies from the expectation, in standard deviations (0 when there is no spread to deviate from). */
        public double deviation(String gateway) {
            double off = measured.getOrDefault(gateway, 0) - expected;
            return samplingError == 0 ? (Math.abs(off) < 1e-9 ? 0 : Math.signum(off) * Double.POSITIVE_INFINITY) : off / samplingError;
        }

        /**
         * When each flow is its own draw over two gateways or more: how likely a spread at least this
         * uneven is if every gateway has chance 1/k (Pearson's chi-square test of the measured counts
         * against n/k each, k - 1 degrees of freedom). Empty otherwise: under L3 a pair's flows move
         * together, so the counts are not independent draws.
         */
        public Optional<Double> pValue() {
            if (!perFlow(policy) || gateways.size() < 2 || flows == 0) {
                return Optional.empty();
            }
            double statistic = 0;
            for (String gateway : gateways) {
                double off = measured.getOrDefault(gateway, 0) - expected;
                statistic += off * off / expected;
            }
            return Optional.of(ChiSquare.upperTail(statistic, gateways.size() - 1));
        }

        /**
         * Whether the measured spread is one hashing makes likely. With each flow its own draw, the
         * whole side is judged at once ({@link #pValue()} at least {@link #SIGNIFICANCE}): judging
         * each gateway at two standard deviations would call one run in five uneven by chance alone
         * once there are four gateways on two sides. Otherwise every gateway's count lies within two
         * standard deviations of the expectation.
         */
        public boolean withinSamplingError() {
            return pValue().map(p -> p >= SIGNIFICANCE).orElseGet(() -> gateways.stream().allMatch(g -> Math.abs(deviation(g)) <= 2));
        }

        public String describe() {
            StringBuilder text = new StringBuilder();
            text.append(cluster).append(' ').append(side).append(side.equals("ingress") ? " (chosen by " + chosenBy + "'s gateways, " : " (")
                    .append(policy).append(", ")
                    .append(perFlow(policy) ? "each flow hashed on its own" : "each pod pair's flows hashed alike").append("): ")
                    .append(flows).append(" flow").append(flows == 1 ? "" : "s");
            if (!perFlow(policy)) {
                text.append(" in ").append(draws).append(" pair").append(draws == 1 ? "" : "s");
            }
            text.append(" over ").append(gateways.size()).append(" gateway").append(gateways.size() == 1 ? "" : "s")
                    .append(String.format(Locale.ROOT, ": %.1f each expected, sampling error %.1f; measured ", expected, samplingError));
            List<String> counts = new ArrayList<>();
            for (String gateway : gateways) {
                double d = deviation(gateway);
                counts.add(gateway + " " + measured.getOrDefault(gateway, 0)
                        + (samplingError == 0 ? "" : String.format(Locale.ROOT, " (%+.1f sd)", d)));
            }
            text.append(String.join(", ", counts));
            pValue().ifPresent(p -> text.append(String.format(Locale.ROOT, "; chi-square p = %.2f", p)));
            return text.append(withinSamplingError() ? "" : pValue().isPresent() ? ", more uneven than hashing makes likely"
                    : "; outside twice the sampling error").toString();
        }
    }

    /**
     * A flow as the spread counts it.
     *
     * @param unit     what its hash draws: the flow itself under L4, its pair's addresses under L3
     * @param chances  the simulator's chance of each gateway for it
     * @param measured the gateways it was measured crossing
     */
    public record Crossing(String unit, Map<String, Double> chances, java.util.Set<String> measured) {
    }

    private HashSpread() {
    }

    /** The spread of {@code flows} over {@code gateways}, each gateway with chance 1/k. */
    public static Spread of(String cluster, String side, String chosenBy, String policy, List<String> gateways, List<Crossing> flows) {
        int n = flows.size();
        int k = gateways.size();
        double p = k == 0 ? 0 : 1.0 / k;
        Map<String, Integer> sizes = new LinkedHashMap<>();
        flows.forEach(f -> sizes.merge(f.unit(), 1, Integer::sum));
        double squares = sizes.values().stream().mapToDouble(size -> (double) size * size).sum();
        Map<String, Integer> measured = new LinkedHashMap<>();
        Map<String, Double> predicted = new LinkedHashMap<>();
        for (String gateway : gateways) {
            measured.put(gateway, 0);
            predicted.put(gateway, 0.0);
        }
        for (Crossing flow : flows) {
            flow.measured().forEach(gateway -> measured.merge(gateway, 1, Integer::sum));
            flow.chances().forEach((gateway, chance) -> {
                if (chance > 0) {
                    predicted.merge(gateway, chance, Double::sum);
                }
            });
        }
        return new Spread(cluster, side, chosenBy, policy, gateways, n, sizes.size(), n * p, Math.sqrt(p * (1 - p) * squares), measured, predicted);
    }
}
