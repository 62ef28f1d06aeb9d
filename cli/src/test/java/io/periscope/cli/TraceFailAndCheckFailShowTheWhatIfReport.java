package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code trace --fail} and {@code check --fail} report what the failure does to each flow as the
 * what-if view does (the simulator's {@code FailoverReport}): in text and in JSON, which flows keep
 * their gateways, move, break or were broken already, with the gateways of whatever cable before and after.
 */
class TraceFailAndCheckFailShowTheWhatIfReport {

    private static final String CLIENT_SERVER = Path.of("..", "examples", "client-server.yaml").toString();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode line(JsonNode failover, String flow) {
        for (JsonNode line : failover) {
            if (line.path("flow").asText().equals(flow)) {
                return line;
            }
        }
        throw new AssertionError("no failover line for " + flow + " in " + failover);
    }

    @Test
    void traceFailJsonListsEachFlowsChangeAndItsLibreswanGatewaysBeforeAndAfter() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("trace", CLIENT_SERVER, "--json", "--fail", "client2/client2-gw");

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode document = JSON.readTree(run.out());
        assertThat(document.path("failed")).containsExactly(JSON.getNodeFactory().textNode("client2/client2-gw"));
        JsonNode failover = document.path("failover");
        assertThat(failover).hasSize(document.path("flows").size());
        JsonNode keeps = line(failover, "client1-to-db");
        assertThat(keeps.path("change").asText()).isEqualTo("keeps");
        assertThat(keeps.path("before").toString()).isEqualTo("[\"client1/client1-gw\",\"server/server-gw\"]");
        assertThat(keeps.path("after")).isEqualTo(keeps.path("before"));
        JsonNode breaks = line(failover, "client2-to-db");
        assertThat(breaks.path("change").asText()).isEqualTo("breaks");
        assertThat(breaks.path("before").toString()).isEqualTo("[\"client2/client2-gw\",\"server/server-gw\"]");
        assertThat(breaks.path("why").asText()).isNotEmpty();
        assertThat(line(failover, "client1-to-client2").path("change").asText()).isEqualTo("still-broken");
    }

    @Test
    void traceFailTextSaysAFlowBrokenBeforeIsStillBroken() {
        PeriscopeRun run = PeriscopeRun.of("trace", CLIENT_SERVER, "--flow", "client1-to-client2", "--fail", "client2/client2-gw");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("failover:\n  client1-to-client2: still broken (nothing was delivered before either)");
    }

    @Test
    void checkFailAddsTheFailoverReportInTextAndJson() throws Exception {
        PeriscopeRun text = PeriscopeRun.of("check", CLIENT_SERVER, "--no-matrix", "--fail", "client2/client2-gw");
        assertThat(text.out()).contains("failover:\n", "  client2-to-db: BREAKS", "  client1-to-db: unaffected",
                "    gateways before: client1/client1-gw, server/server-gw");

        PeriscopeRun json = PeriscopeRun.of("check", CLIENT_SERVER, "--no-matrix", "--json", "--fail", "client2/client2-gw");
        assertThat(line(JSON.readTree(json.out()).path("failover"), "client2-to-db").path("change").asText()).isEqualTo("breaks");

        PeriscopeRun healthy = PeriscopeRun.of("check", CLIENT_SERVER, "--no-matrix", "--json");
        assertThat(JSON.readTree(healthy.out()).has("failover")).isFalse();
    }
}
