package io.periscope.visualizer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The what-if of an OVN-Kubernetes cluster's only gateway failing: the flows through it break, and
 * the page is told so (once the planner threw and the request went unanswered).
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
        assertThat(answer.path("report")).isNotEmpty().allSatisfy(line -> assertThat(line.path("change").asText()).isEqualTo("breaks"));
    }
}
