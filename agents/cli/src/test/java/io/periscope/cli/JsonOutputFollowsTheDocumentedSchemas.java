package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.periscope.lab.probe.AttemptOutcome;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ObservedAttempt;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.probe.ProbeReportJson;
import io.periscope.lab.probe.ProbeTarget;
import io.periscope.lab.probe.SimulatorFlows;
import io.periscope.lab.trace.PathMatch;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cli.md documents each command's JSON with a JSON Schema under docs/schemas/; the commands' real
 * output must validate against it, over inputs that reach the optional fields (failures, --fail,
 * --no-matrix, names nobody answers, OVN).
 */
class JsonOutputFollowsTheDocumentedSchemas {

    private static final Path SCHEMAS = Path.of("..", "..", "docs", "schemas");
    private static final Path EXAMPLES = Path.of("..", "..", "examples");
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
    }

    @Test
    void planOutputFollowsPlanSchema() throws Exception {
        Schema schema = schema("plan.schema.json");
        valid(schema, PeriscopeRun.of("plan", EXAMPLES.resolve("mag-vanilla.yaml").toString(), "--json"), "mag-vanilla");
        valid(schema, PeriscopeRun.of("plan", EXAMPLES.resolve("globalnet-ovn.yaml").toString(), "--json"), "globalnet-ovn");
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
        ProbeReport report = new ProbeReport(set.name(), List.of(
                new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), target.resolved(), simulated.size(),
                        List.of(attempt), Optional.empty()).withDns(new io.periscope.lab.probe.NameResolution("nginx.default.svc.clusterset.local",
                        "cluster1/default/client", List.of(target.destination()), List.of(List.of(target.destination())),
                        Optional.of(target.destination()))),
                FlowProbeResult.unanswered("to-nobody", flow.from().toString(), "nobody.default.svc.clusterset.local:80",
                        "nothing answers 'nobody.default.svc.clusterset.local'"),
                new FlowProbeResult("not-probed", flow.from().toString(), "10.9.9.9:80", "", 0, List.of(), Optional.of("a capture could not open"))));

        String json = ProbeReportJson.render(report);

        assertThat(JSON.readTree(json).findValuesAsText("kind")).as("the observed hops carry encap steps").contains("encap");
        assertThat(JSON.readTree(json).get("flows").get(0).get("dns").get("sentTo").asText()).isEqualTo(target.destination().toString());
        List<Error> errors = schema("lab-probe.schema.json").validate(JSON.readTree(json));
        assertThat(errors).as(json).isEmpty();
    }

    @Test
    void aSchemaRefusesOutputThatBreaksIt() throws Exception {
        JsonNode trace = JSON.readTree(PeriscopeRun.of("trace", EXAMPLES.resolve("mag-vanilla.yaml").toString(), "--json").out());
        ((com.fasterxml.jackson.databind.node.ObjectNode) trace.get("flows").get(0).get("paths").get(0)).put("disposition", "lost");

        assertThat(schema("trace.schema.json").validate(trace)).isNotEmpty();
    }

    private static Schema schema(String name) throws Exception {
        try (InputStream in = Files.newInputStream(SCHEMAS.resolve(name))) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    private static void valid(Schema schema, PeriscopeRun run, String what) throws Exception {
        assertThat(run.out()).as(what + ": " + run.err()).isNotBlank();
        List<Error> errors = schema.validate(JSON.readTree(run.out()));
        assertThat(errors).as(what).isEmpty();
    }
}
