package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class TraceCheckAndPlanRunTheShippedExamples {

    private static final String MAG = Path.of("..", "examples", "mag-globalnet.yaml").toString();
    private static final String EGRESS = Path.of("..", "examples", "globalnet-egress.yaml").toString();
    private static final String OVN = Path.of("..", "examples", "globalnet-ovn.yaml").toString();

    @Test
    void mainJobShowsFourDeliveredPathsEachWithAReplyThroughTheSameTwoGateways() throws Exception {
        PeriscopeRun text = PeriscopeRun.of("trace", MAG);
        assertThat(text.status()).isZero();
        assertThat(text.out()).contains("4 paths, 4 delivered").contains("SRC: 242.254.1.").contains("snat nat/SM-GN-EGRESS-CLUSTER");

        PeriscopeRun json = PeriscopeRun.of("trace", MAG, "--json");
        JsonNode flow = new ObjectMapper().readTree(json.out()).get("flows").get(0);
        assertThat(flow.get("resolved").asText()).isEqualTo("242.254.2.254:80");
        assertThat(flow.get("paths")).hasSize(4);
        for (JsonNode path : flow.get("paths")) {
            assertThat(path.get("disposition").asText()).isEqualTo("delivered");
            String localGateway = gatewayOf(path.get("forward").get("hops"), "cluster1/gw-");
            String remoteGateway = gatewayOf(path.get("forward").get("hops"), "cluster2/gw-");
            assertThat(gatewayOf(path.get("reply").get("hops"), "cluster2/gw-")).isEqualTo(remoteGateway);
            assertThat(gatewayOf(path.get("reply").get("hops"), "cluster1/gw-")).isEqualTo(localGateway);
        }
    }

    private static String gatewayOf(JsonNode hops, String prefix) {
        for (JsonNode hop : hops) {
            if (hop.get("node").asText().startsWith(prefix)) {
                return hop.get("node").asText();
            }
        }
        throw new AssertionError("no hop through " + prefix);
    }

    static List<Path> shippedExamples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @ParameterizedTest
    @MethodSource("shippedExamples")
    void everyShippedExampleHoldsEveryExpectationOfItsFlows(Path example) {
        PeriscopeRun check = PeriscopeRun.of("check", example.toString(), "--no-matrix");
        assertThat(check.status()).as(example + ":\n" + check.out() + check.err()).isZero();
        assertThat(check.out()).contains("every expectation holds").doesNotContain("FAIL ");
    }

    @Test
    void theThreeGatewayExampleSpreadsOverThreeGatewaysAndFailingOneLeavesTwo() {
        String three = Path.of("..", "examples", "mag-3-gateways.yaml").toString();
        PeriscopeRun trace = PeriscopeRun.of("trace", three, "--flow", "client-to-nginx");
        assertThat(trace.out()).contains("cluster1/gw-1").contains("cluster1/gw-2").contains("cluster1/gw-3");

        PeriscopeRun failed = PeriscopeRun.of("trace", three, "--flow", "client-to-nginx", "--fail", "cluster1/gw-1");
        assertThat(failed.out()).contains("client-to-nginx: moves to the remaining gateways")
                .containsPattern("gateways after: +cluster1/gw-2, cluster2/gw-4, cluster1/gw-3 ");
    }

    @Test
    void theOvnExampleCrossesBothLogicalRoutersAndTheGatewaysHost() {
        PeriscopeRun check = PeriscopeRun.of("check", OVN, "--no-matrix");
        assertThat(check.status()).isZero();
        assertThat(check.out()).contains("PASS web-to-nginx").contains("PASS host-network-to-nginx");

        PeriscopeRun trace = PeriscopeRun.of("trace", OVN, "--flow", "web-to-nginx");
        assertThat(trace.out()).contains("east/ovn_cluster_router", "east/submariner_router", "in ovn-k8s-sub0",
                "snat nat/SM-GN-EGRESS-CLUSTER", "route table 149", "west/submariner_router", "dnat ovn/clusterLBGroup");
    }

    @Test
    void checkPassesWhenEveryExpectationHolds() {
        PeriscopeRun run = PeriscopeRun.of("check", EGRESS);
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("PASS web-to-nginx").contains("every expectation holds").contains("reachability");
    }

    @Test
    void checkExitsOneWhenAnExpectationFails(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("wrong.yaml");
        Files.writeString(file, Files.readString(Path.of(EGRESS)).replace(
                "protocol: tcp, expect: delivered}\n  - {name: db-to-nginx", "protocol: tcp, expect: no-route}\n  - {name: db-to-nginx"));
        PeriscopeRun run = PeriscopeRun.of("check", file.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).contains("FAIL web-to-nginx: 1 delivered (expected no-route)").contains("1 of 3 flows failed");
    }

    @Test
    void failingAGatewayMovesMultiActiveTrafficAndBreaksASingleGateway() {
        PeriscopeRun moves = PeriscopeRun.of("trace", MAG, "--fail", "cluster1/gw-1");
        assertThat(moves.out()).contains("2 paths, 2 delivered").contains("client-to-nginx: moves to the remaining gateways");
        PeriscopeRun breaks = PeriscopeRun.of("trace", EGRESS, "--flow", "web-to-nginx", "--fail", "east/east-gw");
        assertThat(breaks.out()).contains("web-to-nginx: BREAKS");
        PeriscopeRun check = PeriscopeRun.of("check", EGRESS, "--fail", "east/east-gw", "--no-matrix");
        assertThat(check.status()).isEqualTo(1);
    }

    @Test
    void adHocFlowsAreTracedAndNamesNobodyAnswersTraceAsUnreachable() {
        PeriscopeRun run = PeriscopeRun.of("trace", EGRESS, "--from", "east/ns1/report", "--to", "west/default/nginx-1:8080");
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("flow ad-hoc");
        // docs/topology.md: a flow to a service nobody exports is a fair question, answered unreachable.
        PeriscopeRun unknown = PeriscopeRun.of("trace", EGRESS, "--from", "east/ns1/report", "--to", "nope.default.svc.clusterset.local:80");
        assertThat(unknown.status()).isZero();
        assertThat(unknown.out()).contains("1 path, 1 unreachable", "nothing answers 'nope.default.svc.clusterset.local'")
                .doesNotContain("Exception");
    }

    @Test
    void planPrintsEachNodesBatchesInTheKernelToolsFormats() {
        PeriscopeRun run = PeriscopeRun.of("plan", MAG, "--node", "cluster2/gw-4");
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("=== cluster2/gw-4 (gateway)").contains("# iptables-restore --noflush").contains("*nat")
                .contains("-A SM-GN-EGRESS-CLUSTER -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.2.9-242.254.2.16")
                .contains("route replace 242.254.1.1/32 table 100 metric 98 proto static via 241.18.0.6 dev vxlan-tunnel")
                .contains("fdb append 00:00:00:00:00:00 dev vxlan-tunnel dst 172.18.0.6 self permanent");
        assertThat(PeriscopeRun.of("plan", MAG, "--node", "cluster2/nope").status()).isEqualTo(2);
    }
}
