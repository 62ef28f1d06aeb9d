package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code check --spread N}: per flow, how N connections spread over the gateways they leave and
 * enter by, with the expected share, the sampling error and the gateways' rates; in text and JSON.
 */
class CheckSpreadsConnectionsOverTheGateways {

    private static final String VANILLA = Path.of("..", "examples", "mag-vanilla.yaml").toString();
    static final String SHAPED_L3 = Path.of("src", "test", "resources", "topologies", "shaped-l3-gateways.yaml").toString();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void underL4TheTextCountsEachGatewayAgainstAnEvenShare() {
        PeriscopeRun run = PeriscopeRun.of("check", VANILLA, "--no-matrix", "--spread", "64");

        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("spread (64 connections per flow from source ports spread evenly over 32768-60999;")
                .contains("  client-to-nginx (tcp, hash policy l4)\n    leaves by  cluster1/gw-1  ")
                .containsPattern("cluster1/gw-2  \\d+ \\(\\d+\\.\\d%\\)  expected 50\\.0% ± 6\\.3%  rate unshaped")
                .containsPattern("enters by  cluster2/gw-3  \\d+ ")
                .contains("aggregate: not limited by any shaped link");
    }

    @Test
    void underL3EveryConnectionTakesOneGatewayAndTheAggregateIsOneGatewaysRate() {
        PeriscopeRun run = PeriscopeRun.of("check", SHAPED_L3, "--no-matrix", "--spread", "32");

        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("client-to-nginx (tcp, hash policy l3)")
                .containsPattern("cluster1/gw-[12]  32 \\(100\\.0%\\)  expected 100\\.0%  rate 100mbit")
                .containsPattern("cluster1/gw-[12]  0  \\(0\\.0%\\)  expected 0\\.0%  rate 100mbit")
                .contains("(the policy hashes the addresses only: every connection of the pod pair takes one gateway)")
                .contains("aggregate: at most 100mbit")
                .contains("client-pings-nginx (icmp): icmp has no ports");
    }

    @Test
    void theJsonHasEachGatewaysShareAndEachPortsGateways() throws Exception {
        JsonNode spread = JSON.readTree(PeriscopeRun.of("check", VANILLA, "--no-matrix", "--json", "--spread", "16").out()).get("spread");

        assertThat(spread.get("connections").asInt()).isEqualTo(16);
        JsonNode flow = spread.get("flows").get(0);
        assertThat(flow.get("hashPolicy").asText()).isEqualTo("l4");
        assertThat(flow.get("local")).hasSize(2);
        int total = 0;
        for (JsonNode share : flow.get("local")) {
            assertThat(share.get("expectedShare").asDouble()).isEqualTo(0.5);
            assertThat(share.get("samplingError").asDouble()).isEqualTo(Math.sqrt(0.25 / 16));
            total += share.get("connections").asInt();
        }
        assertThat(total).isEqualTo(16);
        assertThat(flow.get("ports")).hasSize(16);
        assertThat(flow.get("ports").get(0).get("sourcePort").asInt()).isEqualTo(32768);
        assertThat(flow.get("ports").get(0).get("local").asText()).startsWith("cluster1/gw-");
        assertThat(flow.has("aggregateBitsPerSecond")).isFalse();
    }

    @Test
    void withoutSpreadTheReportHasNone() throws Exception {
        assertThat(PeriscopeRun.of("check", VANILLA, "--no-matrix").out()).doesNotContain("spread");
        assertThat(JSON.readTree(PeriscopeRun.of("check", VANILLA, "--no-matrix", "--json").out()).has("spread")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-3", "28233", "many"})
    void aCountOutsideTheEphemeralRangeIsAUsageError(String count) {
        PeriscopeRun run = PeriscopeRun.of("check", VANILLA, "--spread", count);

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--spread");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void theTraceOfAShapedFileSaysEachPathsDelayBottleneckAndLoss() throws Exception {
        PeriscopeRun text = PeriscopeRun.of("trace", SHAPED_L3, "--flow", "client-to-nginx");

        // worker-1 1ms, the local gateway 2ms in and 2ms out, the cable 20ms, the remote gateway 2 x 2ms, worker-2 1ms.
        assertThat(text.out()).contains("  links: one-way 30ms (± 2ms), bottleneck 100mbit at cluster1/gw-")
                .contains("loss 0.1%; reply one-way 30ms (± 2ms)").contains("round trip 60ms (± 4ms)");
        JsonNode path = JSON.readTree(PeriscopeRun.of("trace", SHAPED_L3, "--flow", "client-to-nginx", "--json").out())
                .get("flows").get(0).get("paths").get(0);
        assertThat(path.get("links").get("forward").get("delayMs").asDouble()).isEqualTo(30.0);
        assertThat(path.get("links").get("forward").get("lossPercent").asDouble()).isEqualTo(0.1, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(path.get("links").get("roundTripMs").asDouble()).isEqualTo(60.0);
    }
}
