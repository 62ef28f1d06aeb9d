package io.periscope.lab.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The hash policy's statement: n flows over k gateways, n/k each, give or take sqrt(n p (1-p)) when
 * each flow is hashed on its own (L4), and far more when a pod pair's flows all hash alike (L3).
 */
class HashSpreadExpectsNOverKGiveOrTakeTheSamplingError {

    private static final List<String> GATEWAYS = List.of("c1/gw-1", "c1/gw-2");

    private static List<HashSpread.Crossing> flows(int onFirst, int onSecond, boolean onePair) {
        List<HashSpread.Crossing> flows = new ArrayList<>();
        for (int i = 0; i < onFirst + onSecond; i++) {
            flows.add(new HashSpread.Crossing(onePair ? "10.0.0.4>242.254.2.254" : "stream " + i, Map.of("c1/gw-1", 0.5, "c1/gw-2", 0.5),
                    Set.of(i < onFirst ? "c1/gw-1" : "c1/gw-2")));
        }
        return flows;
    }

    @Test
    void sixteenFlowsOverTwoGatewaysUnderL4AreEightEachGiveOrTakeTwo() {
        HashSpread.Spread spread = HashSpread.of("c1", "egress", "c1", "l4", GATEWAYS, flows(7, 9, false));

        assertThat(spread.expected()).isEqualTo(8);
        assertThat(spread.samplingError()).isCloseTo(2, within(1e-12));
        assertThat(spread.draws()).isEqualTo(16);
        assertThat(spread.measured()).containsExactly(Map.entry("c1/gw-1", 7), Map.entry("c1/gw-2", 9));
        assertThat(spread.predicted()).containsEntry("c1/gw-1", 8.0);
        assertThat(spread.deviation("c1/gw-1")).isCloseTo(-0.5, within(1e-12));
        assertThat(spread.withinSamplingError()).isTrue();
        assertThat(spread.describe()).contains("16 flows over 2 gateways: 8.0 each expected, sampling error 2.0",
                "c1/gw-1 7 (-0.5 sd)", "c1/gw-2 9 (+0.5 sd)");
    }

    @Test
    void allSixteenOnOneGatewayUnderL4IsOutsideTheSamplingError() {
        HashSpread.Spread spread = HashSpread.of("c1", "egress", "c1", "l4", GATEWAYS, flows(16, 0, false));

        assertThat(spread.deviation("c1/gw-1")).isCloseTo(4, within(1e-12));
        assertThat(spread.withinSamplingError()).isFalse();
        // (8^2 + 8^2) / 8 = 16 on one degree of freedom
        assertThat(spread.pValue()).hasValueSatisfying(p -> assertThat(p).isCloseTo(6.33e-5, within(1e-7)));
        assertThat(spread.describe()).endsWith("chi-square p = 0.00, more uneven than hashing makes likely");
    }

    @Test
    void elevenFiveSixSixOfThirtyTwoOverFourGatewaysIsWhatHashingMakesLikely() {
        List<String> four = List.of("c1/gw-1", "c1/gw-2", "c1/gw-3", "c1/gw-4");
        List<HashSpread.Crossing> flows = new java.util.ArrayList<>();
        int[] counts = {11, 5, 6, 10};
        for (int g = 0; g < 4; g++) {
            for (int i = 0; i < counts[g]; i++) {
                Map<String, Double> chances = new java.util.LinkedHashMap<>();
                four.forEach(gw -> chances.put(gw, 0.25));
                flows.add(new HashSpread.Crossing("stream " + g + "-" + i, chances, Set.of(four.get(g))));
            }
        }
        HashSpread.Spread spread = HashSpread.of("c1", "egress", "c1", "l4", four, flows);

        // one gateway at 2.0 sd below, as the per-gateway rule would already flag at 2.1; the side as a whole: (9+9+4+4)/8 = 3.25 on 3 degrees
        assertThat(spread.deviation("c1/gw-1")).isCloseTo(3 / Math.sqrt(6), within(1e-12));
        assertThat(spread.pValue()).hasValueSatisfying(p -> assertThat(p).isCloseTo(0.3546, within(1e-4)));
        assertThat(spread.withinSamplingError()).isTrue();
    }

    @Test
    void underL3ThereIsNoChiSquareForThePairsFlowsMoveTogether() {
        assertThat(HashSpread.of("c1", "egress", "c1", "l3", GATEWAYS, flows(16, 0, true)).pValue()).isEmpty();
    }

    @Test
    void underL3OnePairIsOneDrawThatCarriesEveryFlow() {
        HashSpread.Spread spread = HashSpread.of("c1", "egress", "c1", "l3", GATEWAYS, flows(16, 0, true));

        assertThat(spread.draws()).isEqualTo(1);
        // sqrt(1/2 * 1/2 * 16^2) = 8: all on one gateway is one standard deviation from 8 each.
        assertThat(spread.samplingError()).isCloseTo(8, within(1e-12));
        assertThat(spread.withinSamplingError()).isTrue();
        assertThat(spread.describe()).contains("each pod pair's flows hashed alike", "16 flows in 1 pair over 2 gateways");
    }

    @Test
    void oneGatewayTakesEverythingWithoutError() {
        HashSpread.Spread spread = HashSpread.of("c1", "egress", "c1", "l4", List.of("c1/gw-1"), List.of(
                new HashSpread.Crossing("stream 0", Map.of("c1/gw-1", 1.0), Set.of("c1/gw-1"))));

        assertThat(spread.expected()).isEqualTo(1);
        assertThat(spread.samplingError()).isZero();
        assertThat(spread.withinSamplingError()).isTrue();
    }

    @Test
    void theKernelsPolicyNumbersHaveTheFilesNames() {
        assertThat(HashSpread.policyName("0")).isEqualTo("l3");
        assertThat(HashSpread.policyName("1")).isEqualTo("l4");
        assertThat(HashSpread.policyName("2")).isEqualTo("l3-inner");
        assertThat(HashSpread.policyName("3")).isEqualTo("l4-inner");
        assertThat(HashSpread.perFlow("l4-inner")).isTrue();
        assertThat(HashSpread.perFlow("l3-inner")).isFalse();
    }
}
