package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/topology.md: "a flow to a service nobody exports is a fair question, whose expected answer is
 * no-route or unreachable". trace, check and the reachability matrix give that answer alike.
 */
class NamesNobodyAnswersTraceAsUnreachableEverywhere {

    static final String UNANSWERED = Path.of("src", "test", "resources", "topologies", "flows-to-names-nobody-answers.yaml").toString();
    static final String POOL_FULL = Path.of("src", "test", "resources", "topologies", "pool-full-before-the-export.yaml").toString();

    @Test
    void traceShowsAServiceNobodyExportsAsUnreachableWithTheReason() {
        PeriscopeRun run = PeriscopeRun.of("trace", UNANSWERED, "--flow", "client-to-nobody");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("1 path, 1 unreachable", "(no address)",
                "no cluster exports service default/nobody (exported: default/nginx in cluster2)", "forward: nothing sent");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void traceShowsAHeadlessNameOfAnUnknownPodAsUnreachable() {
        PeriscopeRun run = PeriscopeRun.of("trace", UNANSWERED, "--flow", "client-to-unknown-pod", "--json");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"disposition\" : \"unreachable\"", "has no headless pod 'ghost'");
    }

    @Test
    void checkHoldsBothExpectationsTheDocumentationGives() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("check", UNANSWERED, "--no-matrix");

        assertThat(run.status()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("PASS client-to-nobody: 1 unreachable (expected unreachable)",
                "PASS client-to-unknown-pod: 1 unreachable (expected no-route)");
        JsonNode json = new ObjectMapper().readTree(PeriscopeRun.of("check", UNANSWERED, "--no-matrix", "--json").out());
        assertThat(json.get("passed").asBoolean()).isTrue();
    }

    @Test
    void anUnansweredFlowNamesItselfOnce() {
        PeriscopeRun run = PeriscopeRun.of("trace", UNANSWERED, "--flow", "client-to-nobody");

        assertThat(run.out() + run.err()).doesNotContain("flow client-to-nobody: flow").doesNotContain("flow 'client-to-nobody': flow");
    }

    @Test
    void theMatrixSaysNoWhereLighthouseHasNoAddressToAnswer() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("check", POOL_FULL, "--json");

        JsonNode json = new ObjectMapper().readTree(run.out());
        JsonNode cells = json.get("reachability").get("cells");
        assertThat(cells).isNotEmpty();
        cells.forEach(row -> row.forEach(cell -> assertThat(cell.asText()).isEqualTo("no")));
        // The flow to the same service agrees with the matrix: unreachable, as its expect says.
        assertThat(json.get("flows").get(0).get("passed").asBoolean()).isTrue();
    }
}
