package io.periscope.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.lab.Examples;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The bench's report, put together from output captured in a real run (8 streams through
 * mag-globalnet's lab: iperf3's JSON, the gateways' connection tables and WAN counters) and a
 * prediction of two equally likely routes per stream: per gateway the flows predicted and measured
 * and its WAN rates, the hash policy's spread, the flows, the totals, and the differences.
 */
class BenchReportShowsEveryGatewayFlowAndTotal {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> GATEWAYS = List.of("cluster1/gw-1", "cluster1/gw-2", "cluster2/gw-3", "cluster2/gw-4");

    /** The report of the captured run; the route measured for {@code wrongPort} is left out of its prediction. */
    static BenchReport report(int wrongPort) {
        ClusterSet set = LabCables.of(Examples.load(Examples.MAG_GLOBALNET)).set();
        ClusterSetPlan plan = Planner.plan(set);
        BenchPlan.Pairs found = BenchPlan.pairs(set, LabLayout.of(plan), new SimulatorFlows(plan), BenchPlan.FIRST_SOURCE_PORT);
        List<BenchPlan.Stream> streams = BenchPlan.streams(1, 8, BenchPlan.FIRST_SOURCE_PORT, Set.of(80));
        Map<String, List<ConntrackEntry>> tables = new LinkedHashMap<>();
        Map<String, LinkBytes> before = new LinkedHashMap<>();
        Map<String, LinkBytes> after = new LinkedHashMap<>();
        for (String gateway : GATEWAYS) {
            tables.put(gateway, ConntrackEntry.parse(BenchSamples.conntrack(gateway)));
            before.put(gateway, LinkBytes.parse(BenchSamples.wan("before", gateway)));
            after.put(gateway, LinkBytes.parse(BenchSamples.wan("after", gateway)));
        }
        BenchPlan.Pair pair = found.pairs().getFirst();
        List<BenchPrediction.PredictedStream> predicted = new ArrayList<>();
        for (BenchPlan.Stream stream : streams) {
            GatewayPassage measured = GatewayPassage.of(new ConntrackEntry.Tuple(pair.sentFrom(), pair.destination(), stream.sourcePort(), 80),
                    Map.of("cluster1/gw-1", tables.get("cluster1/gw-1"), "cluster1/gw-2", tables.get("cluster1/gw-2")),
                    Map.of("cluster2/gw-3", tables.get("cluster2/gw-3"), "cluster2/gw-4", tables.get("cluster2/gw-4")));
            String local = measured.local().iterator().next();
            String remote = measured.remote().iterator().next();
            String otherLocal = local.equals("cluster1/gw-1") ? "cluster1/gw-2" : "cluster1/gw-1";
            String otherRemote = remote.equals("cluster2/gw-3") ? "cluster2/gw-4" : "cluster2/gw-3";
            String predictedRemote = stream.sourcePort() == wrongPort ? otherRemote : remote;
            predicted.add(new BenchPrediction.PredictedStream(stream.id(), List.of(
                    new BenchPrediction.Route(Optional.of(local), Optional.of(predictedRemote), 0.5, true),
                    new BenchPrediction.Route(Optional.of(otherLocal), Optional.of(otherRemote), 0.5, true)), Optional.of("cluster1/worker-1")));
        }
        Map<Integer, Iperf3Result> results = Map.of(0, Iperf3Result.parse(BenchSamples.read("iperf3-client-8-streams.json"), ""));
        return LabBench.report(set.name(), plan, new LabBench.Options(8, 3), found, streams, predicted, results, before, after, tables,
                "the lab's seeds");
    }

    @Test
    void everyStreamAndGatewayIsCountedAndTheTotalsAddUp() {
        BenchReport report = report(-1);

        assertThat(report.differences()).isEmpty();
        assertThat(report.streams()).hasSize(8).allSatisfy(s -> {
            assertThat(s.bytes()).isPositive();
            assertThat(s.matchesPrediction()).isTrue();
        });
        assertThat(report.totals().bitsPerSecond()).isCloseTo(8.35e9, within(0.01e9));
        assertThat(report.totals().retransmits()).isEqualTo(200);
        assertThat(report.totals().fairness()).isBetween(0.99, 1.0);
        assertThat(report.totals().wanToPayload()).isBetween(1.0, 1.01);
        Map<String, BenchReport.GatewayResult> gateways = new LinkedHashMap<>();
        report.gateways().forEach(g -> gateways.put(g.gateway(), g));
        assertThat(gateways.keySet()).containsExactlyElementsOf(GATEWAYS);
        assertThat(gateways.get("cluster1/gw-1").egressMeasured()).isEqualTo(4);
        assertThat(gateways.get("cluster1/gw-2").egressMeasured()).isEqualTo(4);
        assertThat(gateways.get("cluster2/gw-3").ingressMeasured()).isEqualTo(3);
        assertThat(gateways.get("cluster2/gw-4").ingressMeasured()).isEqualTo(5);
        assertThat(gateways.get("cluster1/gw-1").egressPredicted()).isCloseTo(4, within(1e-9));
        assertThat(gateways.get("cluster1/gw-1").egressSpread()).isCloseTo(Math.sqrt(2), within(1e-9));
        // What each local gateway's wan0 sent over the test is its streams' received bytes, and a little.
        assertThat(gateways.get("cluster1/gw-1").wanSentBitsPerSecond()).isCloseTo(4 * 1.04e9, within(0.05e9));
        assertThat(report.spread()).extracting(HashSpread.Spread::side).containsExactly("egress", "ingress");
        assertThat(report.spread()).allSatisfy(s -> assertThat(s.policy()).isEqualTo("l4"));
    }

    @Test
    void theTextHasATablePerGatewayTheSpreadTheFlowsAndTheTotals() {
        String text = BenchReportText.render(report(-1));

        assertThat(text).contains("bench of mag-globalnet: 8 TCP flows for 3 s over 1 pod pair (iperf3)",
                "client-to-nginx: cluster1/default/client -> 242.254.2.254:80 (server cluster2/default/nginx-7d4f:80), 8 streams from ports 21000-21007",
                "cluster1 egress (l4, each flow hashed on its own): 8 flows over 2 gateways: 4.0 each expected, sampling error 1.4",
                "aggregate: 8350.2 Mbit/s over 8 flows", "retransmits: 200 in all, 25.0 per flow",
                "every flow took a route the simulator predicts").doesNotContain("DIFFERS");
        assertThat(text).containsPattern("cluster1/gw-1 +active +4\\.0\\+-1\\.4 +4 +- +0 +41[0-9]{2}\\.[0-9]");
        assertThat(text).containsPattern("21001 +10[0-9]{2}\\.[0-9] +0 +[0-9]+ +cluster1/gw-2 > cluster2/gw-3 {2,}cluster1/gw-2 > cluster2/gw-3 \\(50%\\)");
    }

    @Test
    void aStreamOffItsPredictedRoutesIsADifference() throws Exception {
        BenchReport report = report(21003);

        assertThat(report.differences()).singleElement().asString()
                .startsWith("stream 3 (client-to-nginx, port 21003): took cluster1/gw-2 > cluster2/gw-4, predicted cluster1/gw-2 > cluster2/gw-3 or");
        assertThat(BenchReportText.render(report)).contains("DIFFERS", "1 difference:");
        JsonNode json = JSON.readTree(BenchReportJson.render(report));
        assertThat(json.get("matchesPrediction").asBoolean()).isFalse();
        assertThat(json.get("flows").get(3).get("matchesPrediction").asBoolean()).isFalse();
        assertThat(json.get("flows").get(3).get("localGateways").get(0).asText()).isEqualTo("cluster1/gw-2");
        assertThat(json.get("flows").get(3).get("predicted")).hasSize(2);
        assertThat(json.get("gateways").get(0).get("wan").get("sentBytes").asLong()).isEqualTo(1_568_112_660L - 11_960L);
        assertThat(json.get("totals").get("retransmits").asLong()).isEqualTo(200);
        assertThat(json.get("spread").get(0).get("measured").get("cluster1/gw-1").asInt()).isEqualTo(4);
    }
}
