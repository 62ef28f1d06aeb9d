package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.periscope.visualizer.server.VisualizerServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The visualizer's JSON is version 2 of the trace JSON, and docs/schemas/trace.schema.json describes it:
 * the document {@code serve} answers (healthy, with nodes failed, a typed flow, a what-if, the matrix, a
 * file's errors) and the one {@code trace --html} embeds all validate, while {@code trace --json} stays
 * version 1 (no {@code version}) and validates too.
 */
class TheVisualizersDocumentsFollowTheTraceSchema {

    private static final Path SCHEMAS = Path.of("..", "..", "docs", "schemas");
    private static final Path EXAMPLES = Path.of("..", "..", "examples");
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

    private static Schema schema() throws Exception {
        try (InputStream in = Files.newInputStream(SCHEMAS.resolve("trace.schema.json"))) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    private static void valid(Schema schema, JsonNode document, String what) {
        List<Error> errors = schema.validate(document);
        assertThat(errors).as(what).isEmpty();
    }
}
