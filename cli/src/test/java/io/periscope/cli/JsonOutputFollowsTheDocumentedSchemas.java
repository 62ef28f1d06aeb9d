package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import io.periscope.lab.bench.BenchPlan;
import io.periscope.lab.bench.BenchPrediction;
import io.periscope.lab.bench.BenchReport;
import io.periscope.lab.bench.BenchReportJson;
import io.periscope.lab.bench.GatewayPassage;
import io.periscope.lab.bench.HashSpread;
import io.periscope.lab.failover.FailoverReport;
import io.periscope.lab.failover.FailoverReportJson;
import io.periscope.lab.failover.TcpConnections;
import io.periscope.lab.probe.AttemptOutcome;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ObservedAttempt;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.probe.ProbeReportJson;
import io.periscope.lab.probe.ProbeTarget;
import io.periscope.lab.trace.PathMatch;
import io.periscope.lab.trace.TracePath;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cli.md documents each command's JSON with a JSON Schema under docs/schemas/; the commands' real
 * output must validate against it, over inputs that reach the optional fields (failures, --fail,
 * --no-matrix, names nobody answers, OVN, every kind of DNS record).
 */
class JsonOutputFollowsTheDocumentedSchemas {

    private static final Path SCHEMAS = Path.of("..", "docs", "schemas");
    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void traceOutputFollowsTraceSchema() throws Exception {
        Schema schema = schema("trace.schema.json");
        for (String example : List.of("mag-globalnet.yaml", "globalnet-egress.yaml", "globalnet-ovn.yaml", "on-premise-vxlan-cloud-wireguard.yaml", "mag-globalnet-egress.yaml")) {
            valid(schema, PeriscopeRun.of("trace", EXAMPLES.resolve(example).toString(), "--json"), example);
        }
        valid(schema, PeriscopeRun.of("trace", NamesNobodyAnswersTraceAsUnreachableEverywhere.UNANSWERED, "--json"), "unanswered names");
        valid(schema, PeriscopeRun.of("trace", EXAMPLES.resolve("mag-vanilla.yaml").toString(), "--json", "--fail", "cluster1/worker-1"),
                "source on a failed node");
        valid(schema, PeriscopeRun.of("trace", EXAMPLES.resolve("mag-globalnet-egress.yaml").toString(), "--json", "--fail", "cluster1/gw-1"),
                "moved connections");
        valid(schema, PeriscopeRun.of("trace", CheckSpreadsConnectionsOverTheGateways.SHAPED_L3, "--json"), "shaped links");
    }

    @Test
    void checkOutputFollowsCheckSchema() throws Exception {
        Schema schema = schema("check.schema.json");
        for (String example : List.of("mag-globalnet.yaml", "globalnet-egress.yaml", "globalnet-ovn.yaml", "client-server.yaml", "mag-globalnet-egress.yaml")) {
            valid(schema, PeriscopeRun.of("check", EXAMPLES.resolve(example).toString(), "--json"), example);
        }
        valid(schema, PeriscopeRun.of("check", EXAMPLES.resolve("mag-vanilla.yaml").toString(), "--json", "--no-matrix",
                "--fail", "cluster2/gw-3", "--fail", "cluster2/gw-4"), "--no-matrix and failed gateways");
        valid(schema, PeriscopeRun.of("check", CheckFailsWhenAGlobalnetObjectGetsNoAddresses.POOL_SMALL, "--json"), "allocation failures");
        valid(schema, PeriscopeRun.of("check", NamesNobodyAnswersTraceAsUnreachableEverywhere.POOL_FULL, "--json"), "unanswered matrix");
        valid(schema, PeriscopeRun.of("check", EXAMPLES.resolve("mag-vanilla.yaml").toString(), "--json", "--no-matrix", "--spread", "8"),
                "--spread under l4");
        valid(schema, PeriscopeRun.of("check", CheckSpreadsConnectionsOverTheGateways.SHAPED_L3, "--json", "--no-matrix", "--spread", "8"),
                "--spread under l3 with shaped gateways and an icmp flow");
    }

    @Test
    void planOutputFollowsPlanSchema() throws Exception {
        Schema schema = schema("plan.schema.json");
        valid(schema, PeriscopeRun.of("plan", EXAMPLES.resolve("mag-vanilla.yaml").toString(), "--json"), "mag-vanilla");
        valid(schema, PeriscopeRun.of("plan", EXAMPLES.resolve("globalnet-ovn.yaml").toString(), "--json"), "globalnet-ovn");
        valid(schema, PeriscopeRun.of("plan", EXAMPLES.resolve("on-premise-vxlan-cloud-wireguard.yaml").toString(), "--json"), "WireGuard");
        valid(schema, PeriscopeRun.of("plan", EXAMPLES.resolve("client-server.yaml").toString(), "--json"), "Libreswan");
    }

    /**
     * lab probe needs a lab and root; its JSON is rendered here by the same code from a report whose
     * observed paths are the simulator's own (as a probe that matched would have them), plus a flow
     * nobody answers and one that could not be probed.
     */
    @Test
    void labProbeOutputFollowsLabProbeSchema() throws Exception {
        ClusterSet set = TopologyLoader.load(EXAMPLES.resolve("mag-globalnet.yaml"));
        SimulatorFlows simulation = new SimulatorFlows(Planner.plan(set));
        Flow flow = set.flows().getFirst();
        ProbeTarget target = simulation.resolve(flow);
        List<TracePath> simulated = simulation.paths(target, 40000);
        ObservedAttempt attempt = new ObservedAttempt(new AttemptOutcome(40000, 0, "", target.sourceIp(), simulated.getFirst().disposition(),
                Optional.empty()), simulated.getFirst(), simulated, new PathMatch(0, Optional.empty()));
        // A packet a WireGuard device dropped on receive: the path's reason, and a drop step where it ended.
        TracePath droppedOnReceive = new TracePath("dropped", simulated.getFirst().forward(), List.of(), List.of(),
                Optional.of("cluster2/gw-3 submariner drops a packet from peer cluster1/gw-1 (172.18.0.6:4500): inner source 242.254.1.9 is"
                        + " not in its allowed IPs [242.254.1.1/32]"));
        ObservedAttempt dropped = new ObservedAttempt(new AttemptOutcome(40001, 0, "", target.sourceIp(), "dropped",
                Optional.of("connect timed out")), droppedOnReceive, simulated, new PathMatch(0, Optional.empty()));
        ProbeReport report = new ProbeReport(set.name(), List.of(
                new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), target.resolved(), simulated.size(),
                        List.of(attempt, dropped), Optional.empty()).withDns(new io.periscope.lab.probe.NameResolution("nginx.default.svc.clusterset.local",
                        "cluster1/default/client", List.of(target.destination()), List.of(List.of(target.destination())),
                        Optional.of(target.destination()))),
                FlowProbeResult.unanswered("to-nobody", flow.from().toString(), "nobody.default.svc.clusterset.local:80",
                        "nothing answers 'nobody.default.svc.clusterset.local'"),
                new FlowProbeResult("not-probed", flow.from().toString(), "10.9.9.9:80", "", 0, List.of(), Optional.of("a capture could not open"))));

        String json = ProbeReportJson.render(report);

        assertThat(JSON.readTree(json).findValuesAsText("kind")).as("the observed hops carry encap and drop steps").contains("encap", "drop");
        assertThat(JSON.readTree(json).get("flows").get(0).get("dns").get("sentTo").asText()).isEqualTo(target.destination().toString());
        List<Error> errors = schema("lab-probe.schema.json").validate(JSON.readTree(json));
        assertThat(errors).as(json).isEmpty();
    }

    /** Two clusters exporting web (a named port, for SRV), one a headless kv: every kind of record and verdict dns prints. */
    private static final String ANSWERS = """
            name: answers
            clusters:
              - name: a
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: a-gw, ip: 172.31.1.2, cniIP: 10.1.0.1, gateway: true}
                  - {name: a-worker, ip: 172.31.1.3, cniIP: 10.1.1.1}
                pods:
                  - {name: web-a, namespace: default, node: a-worker, ip: 10.1.1.10, labels: {app: web}}
                services:
                  - {name: web, namespace: default, clusterIP: 100.1.0.10, selector: {app: web}, ports: [{name: http, port: 80, targetPort: 8080}]}
                exports: [default/web]
              - name: b
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: b-gw, ip: 172.31.2.2, cniIP: 10.2.0.1, gateway: true}
                  - {name: b-worker, ip: 172.31.2.3, cniIP: 10.2.1.1}
                pods:
                  - {name: web-b, namespace: default, node: b-worker, ip: 10.2.1.10, labels: {app: web}}
                  - {name: kv-0, namespace: store, node: b-worker, ip: 10.2.2.10, labels: {app: kv}}
                  - {name: kv-1, namespace: store, node: b-worker, ip: 10.2.2.11, labels: {app: kv}}
                services:
                  - {name: web, namespace: default, clusterIP: 100.2.0.10, selector: {app: web}, ports: [{name: http, port: 80, targetPort: 8080}]}
                  - {name: kv, namespace: store, headless: true, selector: {app: kv}, ports: [{name: kv, port: 6379}]}
                exports: [default/web, store/kv]
            """;

    @Test
    void dnsOutputFollowsDnsSchema(@TempDir Path dir) throws Exception {
        Schema schema = schema("dns.schema.json");
        String file = Files.writeString(dir.resolve("answers.yaml"), ANSWERS).toString();
        List<List<String>> questions = List.of(
                List.of("web.default.svc.clusterset.local"),
                List.of("_http._tcp.web.default.svc.clusterset.local", "--type", "SRV"),
                List.of("_kv._tcp.kv.store.svc.clusterset.local", "--type", "SRV"),
                List.of("kv.store.svc.clusterset.local", "--type", "ANY"),
                List.of("kv-0.b.kv.store.svc.clusterset.local"),
                List.of("b.web.default.svc.clusterset.local"),
                List.of("web.default.svc.clusterset.local", "--type", "AAAA"),
                List.of("web.default.svc.clusterset.local", "--type", "99"),
                List.of("clusterset.local", "--type", "SOA"),
                List.of("clusterset.local", "--type", "NS"),
                List.of("nobody.default.svc.clusterset.local"),
                List.of("web.default.svc.clusterset.local", "--from", "b", "--fail", "a/a-gw"),
                List.of("web.default.svc.clusterset.local", "--fail", "a/a-gw"));
        for (List<String> question : questions) {
            valid(schema, PeriscopeRun.of(PeriscopeRun.with(List.of("dns", file), PeriscopeRun.with(question, "--json").toArray(String[]::new))),
                    String.join(" ", question));
        }
        valid(schema, PeriscopeRun.of("dns", EXAMPLES.resolve("globalnet-egress.yaml").toString(), "http.myproject.svc.clusterset.local",
                "--from", "east", "--json"), "globalnet headless");
        valid(schema, PeriscopeRun.of("dns", EXAMPLES.resolve("mag-globalnet.yaml").toString(), "nginx.default.svc.clusterset.local",
                "--json"), "globalnet");
    }

    /**
     * lab failover needs a lab and root; its JSON is rendered here by the same code from reports built
     * in code: healed and not, streams that moved and stayed, TCP connections of every fate, and
     * differences from the prediction.
     */
    @Test
    void labFailoverOutputFollowsLabFailoverSchema() throws Exception {
        Schema schema = schema("lab-failover.schema.json");
        String gw1 = "cluster2/gw-1";
        String gw2 = "cluster2/gw-2";
        List<FailoverReport.StreamResult> streams = List.of(
                new FailoverReport.StreamResult(0, "client-to-nginx-udp", 40000, 5000, 4790, 200, 201.5, 10, 10.25,
                        Set.of(gw1), Set.of(gw2), Set.of(gw1)),
                new FailoverReport.StreamResult(1, "client-to-nginx-udp", 40001, 5000, 5000, 0, 0, 0, 0,
                        Set.of(gw2), Set.of(gw2), Set.of(gw2)),
                new FailoverReport.StreamResult(2, "client-to-nginx-udp", 40002, 5000, 3000, 2000, 2000, 0, 0,
                        Set.of(), Set.of(), Set.of()));
        List<FailoverReport.TcpResult> tcp = new java.util.ArrayList<>();
        for (String fate : List.of("survived", "reset", "stalled", "never connected")) {
            tcp.add(new FailoverReport.TcpResult(new TcpConnections.Outcome(tcp.size(), "client-to-nginx", 41000 + tcp.size(), fate, 120, 2100,
                    fate.equals("reset") ? "Connection reset by peer" : ""), Set.of(gw1), fate.equals("survived") ? Set.of(gw2) : Set.of()));
        }
        FailoverReport.Summary surviving = new FailoverReport.Summary(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        FailoverReport.Summary moved = new FailoverReport.Summary(1, 200, 201.5, 201.5, 201.5, 201.5, 1, 10, 10.25, 1);
        FailoverReport.Prediction prediction = new FailoverReport.Prediction(new java.util.TreeSet<>(Set.of(gw1, gw2)), Set.of(gw2),
                "each node's choice by the kernel's multipath hash under the seed lab up gave it",
                List.of(new io.periscope.lab.failover.FailoverPrediction.PredictedStream(0, Set.of(gw1), Set.of(gw2), Set.of(gw1)),
                        new io.periscope.lab.failover.FailoverPrediction.PredictedStream(1, Set.of(gw2), Set.of(gw2), Set.of())),
                List.of("stream 2 (port 40002): crossed no gateway before the failure",
                        "stream 0 (port 40000): after the heal predicted " + gw1 + ", measured " + gw2));

        for (Long healedAfter : java.util.Arrays.asList(3000L, null)) {
            FailoverReport report = new FailoverReport("mag-globalnet-udp", gw1, "crash", 1000, healedAfter, streams, tcp, surviving, moved,
                    prediction, 3, 998.7);

            String json = FailoverReportJson.render(report);

            List<Error> errors = schema.validate(JSON.readTree(json));
            assertThat(errors).as(json).isEmpty();
        }
    }

    /**
     * lab bench needs a lab and root; its JSON is rendered here by the same code from a report built in
     * code: a pair with a flow that matched, one that moved nothing, one crossing no gateway, a flow
     * left out, gateways active and standby, both sides' spread.
     */
    @Test
    void labBenchOutputFollowsLabBenchSchema() throws Exception {
        Schema schema = schema("lab-bench.schema.json");
        io.periscope.model.net.Ipv4Address client = io.periscope.model.net.Ipv4Address.parse("10.0.128.4");
        BenchPlan.Pair pair = new BenchPlan.Pair(0, "client-to-nginx", io.periscope.plan.HostId.pod("cluster1", "default", "client"), "psc-client",
                Optional.of(client), client, io.periscope.model.net.Ipv4Address.parse("242.254.2.254"), 80,
                io.periscope.plan.HostId.pod("cluster2", "default", "nginx"), "psc-nginx", 80);
        BenchPrediction.PredictedStream twoWays = new BenchPrediction.PredictedStream(0, List.of(
                new BenchPrediction.Route(Optional.of("cluster1/gw-1"), Optional.of("cluster2/gw-3"), 0.5, true),
                new BenchPrediction.Route(Optional.of("cluster1/gw-2"), Optional.of("cluster2/gw-4"), 0.5, true)), Optional.of("cluster1/worker-1"));
        BenchPrediction.PredictedStream oneWay = new BenchPrediction.PredictedStream(1, List.of(
                new BenchPrediction.Route(Optional.empty(), Optional.empty(), 1, false)), Optional.empty());
        List<BenchReport.StreamResult> streams = List.of(
                new BenchReport.StreamResult(0, pair.flow(), 0, 21000, 391_380_992L, 1.04e9, 14, 84,
                        new GatewayPassage(Set.of("cluster1/gw-1"), Set.of("cluster2/gw-3")), twoWays, Optional.empty()),
                new BenchReport.StreamResult(1, pair.flow(), 0, 21001, 0, 0, 0, 0, new GatewayPassage(Set.of(), Set.of()), oneWay,
                        Optional.of("unable to connect to server: Connection refused")));
        List<BenchReport.GatewayResult> gateways = List.of(
                new BenchReport.GatewayResult("cluster1/gw-1", "cluster1", true, 0.5, 0.5, 1, 0, 0, 0, 400_000_000L, 2_000_000L, 1.06e9, 5.3e6),
                new BenchReport.GatewayResult("cluster2/gw-5", "cluster2", false, 0, 0, 0, 0.5, 0.5, 1, 1_000L, 400_000_000L, 2.7e3, 1.06e9));
        List<HashSpread.Spread> spread = List.of(
                HashSpread.of("cluster1", "egress", "cluster1", "l4", List.of("cluster1/gw-1", "cluster1/gw-2"), List.of(
                        new HashSpread.Crossing("stream 0", java.util.Map.of("cluster1/gw-1", 0.5, "cluster1/gw-2", 0.5), Set.of("cluster1/gw-1")))),
                HashSpread.of("cluster2", "ingress", "cluster1", "l3", List.of("cluster2/gw-3"), List.of(
                        new HashSpread.Crossing("10.0.128.4>242.254.2.254", java.util.Map.of("cluster2/gw-3", 1.0), Set.of("cluster2/gw-3")))));
        BenchReport report = new BenchReport("mag-globalnet", 3, 3.004, List.of(pair), List.of(new BenchPlan.Skipped("to-both", "its connections can end at 2 places")),
                streams, gateways, spread, new BenchReport.Totals(2, 1, 391_380_992L, 1.04e9, 0.5, 14, 402_001_000L, 1.027),
                "each node's choice by the kernel's multipath hash under the seed lab up gave it",
                List.of("stream 1 (client-to-nginx, port 21001): moved no bytes, where the simulator delivers it: unable to connect to server"));

        String json = BenchReportJson.render(report);

        List<Error> errors = schema.validate(JSON.readTree(json));
        assertThat(errors).as(json).isEmpty();
        assertThat(JSON.readTree(json).get("matchesPrediction").asBoolean()).isFalse();
    }

    /**
     * Every command that takes --json, found in the command tree, has its schema in docs/schemas, a row in
     * docs/cli.md's table, and a test here that validates its output against it: a command given --json
     * later fails here until all three exist.
     */
    @Test
    void everyCommandWithJsonHasItsSchemaARowAndATest() throws Exception {
        String cli = Files.readString(Path.of("..", "docs", "cli.md"));
        String tests = Files.readString(Path.of("src", "test", "java", "io", "periscope", "cli", getClass().getSimpleName() + ".java"));
        List<String> withJson = new java.util.ArrayList<>();
        for (List<String> path : PeriscopeRun.commandPaths()) {
            picocli.CommandLine command = PeriscopeCommand.commandLine();
            for (String word : path) {
                command = command.getSubcommands().get(word);
            }
            if (command.getCommandSpec().findOption("--json") == null) {
                continue;
            }
            String schemaFile = String.join("-", path) + ".schema.json";
            withJson.add(String.join(" ", path));

            assertThat(SCHEMAS.resolve(schemaFile)).as(String.join(" ", path)).isRegularFile();
            assertThat(cli).as("docs/cli.md's JSON table").contains("| `" + String.join(" ", path) + " --json` | [" + schemaFile
                    + "](schemas/" + schemaFile + ") |");
            assertThat(tests).as("a test validates it").contains("schema(\"" + schemaFile + "\")");
        }
        assertThat(withJson).contains("trace", "check", "plan", "dns", "lab probe", "lab failover", "lab bench");
    }

    @Test
    void aSchemaRefusesOutputThatBreaksIt() throws Exception {
        JsonNode trace = JSON.readTree(PeriscopeRun.of("trace", EXAMPLES.resolve("mag-vanilla.yaml").toString(), "--json").out());
        ((com.fasterxml.jackson.databind.node.ObjectNode) trace.get("flows").get(0).get("paths").get(0)).put("disposition", "lost");

        assertThat(schema("trace.schema.json").validate(trace)).isNotEmpty();
    }

    private static Schema schema(String name) {
        return DocumentedSchemas.load(name);
    }

    private static void valid(Schema schema, PeriscopeRun run, String what) throws Exception {
        assertThat(run.out()).as(what + ": " + run.err()).isNotBlank();
        List<Error> errors = schema.validate(JSON.readTree(run.out()));
        assertThat(errors).as(what).isEmpty();
    }
}
