package io.periscope.visualizer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The what-if of an OVN-Kubernetes cluster's only gateway failing: the flows through it break, and
 * the page is told so (once {@code OvnPlanner.chassis} threw {@code NoSuchElementException} and the
 * request went unanswered), each path with the reason it is dropped.
 */
class TheWhatIfOfAnOvnClusterWithoutGatewaysAnswers {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ServedExample served = new ServedExample("globalnet-ovn.yaml");

    @Test
    void failingTheOnlyGatewayOfTheServiceClusterBreaksEveryFlow() throws Exception {
        HttpResponse<String> response = served.running.post("/api/whatif", "{\"fail\": [\"west/west-gw\"]}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(response.body());
        assertThat(answer.path("report")).isNotEmpty().allSatisfy(line -> {
            assertThat(line.path("change").asText()).isEqualTo("breaks");
            // Through west-gw, whatever the cable: both ends of it before, none after.
            assertThat(line.path("before").toString()).contains("\"west/west-gw\"", "\"east/east-gw\"");
            assertThat(line.path("after")).isEmpty();
            assertThat(line.path("why").asText()).as(line.toString()).isNotEmpty();
        });
        // Every path of every flow through it is dropped, and says why.
        assertThat(answer.path("flows")).hasSize(2).allSatisfy(flow -> assertThat(flow.path("paths")).isNotEmpty().allSatisfy(path -> {
            assertThat(path.path("disposition").asText()).isNotEqualTo("delivered");
            assertThat(path.path("reason").asText()).isNotEmpty();
        }));
        assertThat(answer.path("healthy")).allSatisfy(flow -> assertThat(flow.path("paths"))
                .anySatisfy(path -> assertThat(path.path("disposition").asText()).isEqualTo("delivered")));
    }
}
