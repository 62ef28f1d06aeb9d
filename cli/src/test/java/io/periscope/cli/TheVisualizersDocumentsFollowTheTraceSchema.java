package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
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
import io.periscope.visualizer.lab.Lab;
import io.periscope.visualizer.lab.LabStatus;
import io.periscope.visualizer.lab.ScriptedLab;
import io.periscope.visualizer.server.RunningServer;
import io.periscope.visualizer.server.VisualizerServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The visualizer's JSON is version 2 of the trace JSON, and docs/schemas/trace.schema.json describes it:
 * the document {@code serve} answers (healthy, with nodes failed, a typed flow, a what-if, the matrix, a
 * file's errors) and the one {@code trace --html} embeds all validate, while {@code trace --json} stays
 * version 1 (no {@code version}) and validates too. A lab probe under {@code serve} answers version 3,
 * described by the same schema with each flow's {@code observed} by lab-probe.schema.json: documents
 * of a scripted lab whose captures are the real simulation, and of one that answers with
 * {@code lab probe}'s own JSON for flows that could not be sent, validate; broken ones do not.
 */
class TheVisualizersDocumentsFollowTheTraceSchema {

    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EMBEDDED = "window.PERISCOPE_DOCUMENT = ";

    @TempDir
    Path dir;

    @Test
    void theDocumentTraceHtmlEmbedsIsVersion2AndValid() throws Exception {
        Schema schema = schema();
        for (String example : List.of("mag-globalnet.yaml", "globalnet-egress.yaml", "globalnet-ovn.yaml",
                "on-premise-vxlan-cloud-wireguard.yaml", "client-server.yaml")) {
            JsonNode document = embedded(example, List.of());
            assertThat(document.path("version").asInt()).isEqualTo(2);
            valid(schema, document, example);
        }
        valid(schema, embedded("mag-vanilla.yaml", List.of("--fail", "cluster2/gw-3")), "--html --fail");
        valid(schema, embedded(NamesNobodyAnswersTraceAsUnreachableEverywhere.UNANSWERED, List.of()), "names nobody answers");
    }

    @Test
    void everyAnswerOfServeIsVersion2AndValid() throws Exception {
        Schema schema = schema();
        Path file = Files.copy(EXAMPLES.resolve("mag-globalnet.yaml"), dir.resolve("mag-globalnet.yaml"));
        try (VisualizerServer server = VisualizerServer.start(file, InetAddress.getByName("127.0.0.1"), 0);
             HttpClient client = HttpClient.newHttpClient()) {
            JsonNode document = get(client, server, "/api/document");
            assertThat(document.path("flows").get(0).path("paths").get(0).path("forward").path("hops").get(0).path("conntrack"))
                    .as("hops carry their conntrack view").isNotEmpty();
            valid(schema, document, "document");
            valid(schema, get(client, server, "/api/document?fail=cluster2/gw-3"), "document with a failed gateway");
            valid(schema, post(client, server, "/api/whatif", "{\"fail\": [\"cluster2/gw-3\", \"cluster2/gw-4\"]}"), "what if");
            valid(schema, post(client, server, "/api/trace",
                    "{\"from\": \"cluster1/default/client\", \"to\": \"nginx.default.svc.clusterset.local:80\"}"), "typed flow");
            valid(schema, get(client, server, "/api/reachability"), "reachability");
        }
        Path broken = Files.writeString(dir.resolve("broken.yaml"),
                Files.readString(file).replaceFirst("podCIDRs: \\[10.0.0.0/16]", "podCIDRs: [10.0.0.0/33]"));
        try (VisualizerServer server = VisualizerServer.start(broken, InetAddress.getByName("127.0.0.1"), 0);
             HttpClient client = HttpClient.newHttpClient()) {
            JsonNode errors = get(client, server, "/api/document");
            assertThat(errors.path("errors")).isNotEmpty();
            valid(schema, errors, "a file's errors");
        }
    }

    @Test
    void traceJsonStaysVersion1() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("trace", EXAMPLES.resolve("mag-globalnet.yaml").toString(), "--json");
        JsonNode document = JSON.readTree(run.out());
        assertThat(document.has("version")).isFalse();
        valid(schema(), document, "trace --json");
    }

    @Test
    void theSchemaRefusesAVersion2DocumentThatBreaksIt() throws Exception {
        Schema schema = schema();
        ObjectNode document = (ObjectNode) embedded("mag-globalnet.yaml", List.of());
        ObjectNode conntrack = (ObjectNode) document.at("/flows/0/paths/0/forward/hops/0/conntrack/0");
        conntrack.put("state", "sleepy");
        assertThat(schema.validate(document)).isNotEmpty();

        ObjectNode unlabelled = (ObjectNode) embedded("mag-globalnet.yaml", List.of());
        unlabelled.remove("format");
        assertThat(schema.validate(unlabelled)).isNotEmpty();

        ObjectNode topologyInVersion1 = (ObjectNode) JSON.readTree(PeriscopeRun.of("trace", EXAMPLES.resolve("mag-globalnet.yaml").toString(),
                "--json").out());
        topologyInVersion1.set("topology", document.get("topology"));
        assertThat(schema.validate(topologyInVersion1)).as("a topology without the version that defines it").isNotEmpty();
    }

    @Test
    void aLabProbeUnderServeAnswersVersion3AndItIsValid() throws Exception {
        Schema schema = schema();
        Path file = Files.copy(EXAMPLES.resolve("mag-globalnet.yaml"), dir.resolve("mag-globalnet.yaml"));
        ScriptedLab differing = new ScriptedLab(ScriptedLab.up()).tamper(new ScriptedLab.Tamper(1, "forward", 2, "depart.src", "192.0.2.99"));
        try (RunningServer server = new RunningServer(file, differing)) {
            JsonNode one = probe(server, "{\"flow\": \"client-to-nginx\"}");
            assertThat(one.path("version").asInt()).isEqualTo(3);
            assertThat(one.at("/flows/0/observed/paths/1/firstDifference/field").asText()).as("a path that differs").isEqualTo("depart.src");
            assertThat(one.at("/flows/0/paths/0/forward/hops/0/conntrack")).as("the simulated hops as in version 2").isNotEmpty();
            valid(schema, one, "a probe that differs");
            valid(schema, probe(server, "{}"), "every flow");
        }
        for (String example : List.of("globalnet-egress.yaml", "client-server.yaml")) {
            Path other = Files.copy(EXAMPLES.resolve(example), dir.resolve(example));
            try (RunningServer server = new RunningServer(other, new ScriptedLab(ScriptedLab.up()))) {
                JsonNode document = probe(server, "{}");
                assertThat(document.path("flows")).as(example).isNotEmpty().allMatch(f -> f.has("observed"));
                valid(schema, document, example);
            }
        }
    }

    /**
     * A lab that answers with what {@code lab probe --json} renders (ProbeReportJson) for a report of
     * three kinds: paths observed as simulated, a name nobody answers, and a flow not probed.
     */
    @Test
    void version3CarriesLabProbesOwnJsonForEveryKindOfFlowAndIsValid() throws Exception {
        Schema schema = schema();
        Path file = Files.copy(EXAMPLES.resolve("mag-globalnet.yaml"), dir.resolve("mag-globalnet.yaml"));
        ClusterSet set = TopologyLoader.load(file);
        SimulatorFlows simulation = new SimulatorFlows(Planner.plan(set));
        Flow flow = set.flows().getFirst();
        ProbeTarget target = simulation.resolve(flow);
        List<TracePath> simulated = simulation.paths(target, 40000);
        ObservedAttempt attempt = new ObservedAttempt(new AttemptOutcome(40000, 0, "", target.sourceIp(), simulated.getFirst().disposition(),
                Optional.empty()), simulated.getFirst(), simulated, new PathMatch(0, Optional.empty()));
        List<FlowProbeResult> kinds = List.of(
                new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), target.resolved(), simulated.size(),
                        List.of(attempt), Optional.empty()),
                FlowProbeResult.unanswered(flow.name(), flow.from().toString(), flow.to().toString(),
                        "nothing answers 'nginx.default.svc.clusterset.local'"),
                new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), "", 0, List.of(),
                        Optional.of("a capture could not open")));
        for (FlowProbeResult kind : kinds) {
            Lab lab = new Lab() {
                @Override
                public LabStatus status(Path probed, ClusterSet loaded) {
                    return ScriptedLab.up();
                }

                @Override
                public ObjectNode probe(Path probed, ClusterSet loaded, Optional<String> name, Consumer<String> progress) {
                    progress.accept("flow 1/1 " + kind.name() + ": " + kind.problem().orElse("probed"));
                    return ProbeReportJson.tree(new ProbeReport(loaded.name(), List.of(kind)));
                }
            };
            try (RunningServer server = new RunningServer(file, lab)) {
                JsonNode document = probe(server, "{}");
                assertThat(document.at("/flows/0/observed").isObject()).as("%s", document).isTrue();
                valid(schema, document, kind.problem().orElse(kind.unanswered().orElse("observed")));
            }
        }
    }

    @Test
    void theSchemaRefusesAVersion3DocumentThatBreaksIt() throws Exception {
        Schema schema = schema();
        Path file = Files.copy(EXAMPLES.resolve("mag-globalnet.yaml"), dir.resolve("mag-globalnet.yaml"));
        JsonNode good;
        try (RunningServer server = new RunningServer(file, new ScriptedLab(ScriptedLab.up()))) {
            good = probe(server, "{}");
        }
        valid(schema, good, "the document the breakages start from");

        ObjectNode notBoolean = good.deepCopy();
        ((ObjectNode) notBoolean.at("/flows/0/observed/paths/0")).put("matchesSimulation", "yes");
        assertThat(schema.validate(notBoolean)).as("an observed path's matchesSimulation not a boolean").isNotEmpty();

        ObjectNode named = good.deepCopy();
        ((ObjectNode) named.at("/flows/0/observed")).put("name", "client-to-nginx");
        assertThat(schema.validate(named)).as("observed carries the flow's name, which version 3 leaves out").isNotEmpty();

        ObjectNode unknownField = good.deepCopy();
        ((ObjectNode) unknownField.at("/flows/0")).put("observedBy", "tcpdump");
        assertThat(schema.validate(unknownField)).as("a flow property no version defines").isNotEmpty();

        ObjectNode noLab = good.deepCopy();
        noLab.remove("lab");
        assertThat(schema.validate(noLab)).as("no lab status").isNotEmpty();

        ObjectNode badCondition = good.deepCopy();
        ((ObjectNode) badCondition.get("lab")).put("condition", "sleepy");
        assertThat(schema.validate(badCondition)).as("a lab condition that does not exist").isNotEmpty();

        ObjectNode encapOnly = good.deepCopy();
        ((ObjectNode) encapOnly.at("/flows/0/observed/paths/0/forward/hops/0")).putArray("steps").addObject().put("kind", "snat");
        assertThat(schema.validate(encapOnly)).as("an observed hop with a step captures cannot see").isNotEmpty();

        ObjectNode observedInVersion2 = good.deepCopy();
        observedInVersion2.put("version", 2);
        observedInVersion2.remove(List.of("lab", "matchesSimulation", "log"));
        assertThat(schema.validate(observedInVersion2)).as("observed in a version 2 document").isNotEmpty();
    }

    private static JsonNode probe(RunningServer server, String body) throws Exception {
        HttpResponse<String> response = server.post("/api/lab/probe", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private JsonNode embedded(String example, List<String> more) throws Exception {
        Path page = dir.resolve("page.html");
        Files.deleteIfExists(page);
        String file = example.contains("/") ? example : EXAMPLES.resolve(example).toString();
        List<String> args = new java.util.ArrayList<>(List.of("trace", file, "--html", page.toString()));
        args.addAll(more);
        PeriscopeRun run = PeriscopeRun.of(args);
        assertThat(run.status()).as(run.err()).isZero();
        String html = Files.readString(page);
        int start = html.indexOf(EMBEDDED) + EMBEDDED.length();
        int end = html.indexOf(";</script>", start);
        return JSON.readTree(html.substring(start, end));
    }

    private static JsonNode get(HttpClient client, VisualizerServer server, String path) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.url()).resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static JsonNode post(HttpClient client, VisualizerServer server, String path, String body) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.url()).resolve(path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static Schema schema() {
        return DocumentedSchemas.load("trace.schema.json");
    }

    private static void valid(Schema schema, JsonNode document, String what) {
        List<Error> errors = schema.validate(document);
        assertThat(errors).as(what).isEmpty();
    }
}
