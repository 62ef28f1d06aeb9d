package io.periscope.visualizer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The JSON the page draws: the topology and its traces, an ad-hoc trace, a what-if, the matrix. */
class TheApiAnswersFromTheSimulator {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ServedExample served = new ServedExample("mag-globalnet.yaml");

    @Test
    void theDocumentHoldsTheTopologyAndEveryPath() throws Exception {
        JsonNode document = JSON.readTree(served.running.get("/api/document").body());
        assertThat(document.path("format").asText()).isEqualTo("periscope-trace");
        assertThat(document.path("version").asInt()).isEqualTo(2);
        JsonNode clusters = document.path("topology").path("clusters");
        assertThat(clusters).hasSize(2);
        assertThat(clusters.get(0).path("globalCIDR").asText()).isEqualTo("242.254.1.0/24");
        assertThat(clusters.get(1).path("exports").get(0).path("name").asText()).isEqualTo("default/nginx");
        assertThat(document.path("topology").path("cables").get(0).path("driver").asText()).isEqualTo("vxlan");
        List<String> states = new ArrayList<>();
        clusters.get(0).path("hosts").forEach(h -> states.add(h.path("id").asText() + " " + h.path("state").asText()));
        assertThat(states).contains("cluster1/gw-1 active", "cluster1/gw-2 active", "cluster1/worker-1 up");
        assertThat(document.path("flows").get(0).path("paths")).hasSize(4);
    }

    @Test
    void anAdHocFlowIsTraced() throws Exception {
        JsonNode answer = JSON.readTree(served.running.post("/api/trace",
                "{\"from\": \"cluster1/default/client\", \"to\": \"nginx.default.svc.clusterset.local:80\"}").body());
        JsonNode flow = answer.path("flows").get(0);
        assertThat(flow.path("resolved").asText()).isEqualTo("242.254.2.254:80");
        assertThat(flow.path("paths")).hasSize(4);
    }

    @Test
    void failingAGatewayMovesTheFlowToTheOthers() throws Exception {
        JsonNode answer = JSON.readTree(served.running.post("/api/whatif", "{\"fail\": [\"cluster2/gw-3\"]}").body());
        JsonNode line = answer.path("report").get(0);
        assertThat(line.path("change").asText()).isEqualTo("moves");
        assertThat(line.path("before").toString()).contains("cluster2/gw-3");
        assertThat(line.path("after").toString()).doesNotContain("cluster2/gw-3").contains("cluster2/gw-4");
        assertThat(answer.path("flows").get(0).path("paths")).hasSize(2);
        assertThat(answer.path("healthy").get(0).path("paths")).hasSize(4);
        assertThat(answer.path("topology").toString()).contains("\"id\":\"cluster2/gw-3\",\"name\":\"gw-3\",\"kind\":\"gateway\",\"state\":\"failed\"");
    }

    @Test
    void failingEveryGatewayOfAClusterBreaksTheFlow() throws Exception {
        JsonNode answer = JSON.readTree(served.running.post("/api/whatif", "{\"fail\": [\"cluster2/gw-3\", \"cluster2/gw-4\"]}").body());
        assertThat(answer.path("report").get(0).path("change").asText()).isEqualTo("breaks");
    }

    @Test
    void theMatrixSaysTheClientReachesNginx() throws Exception {
        JsonNode matrix = JSON.readTree(served.running.get("/api/reachability").body());
        int client = -1;
        for (int i = 0; i < matrix.path("sources").size(); i++) {
            if (matrix.path("sources").get(i).asText().equals("cluster1/default/client")) {
                client = i;
            }
        }
        assertThat(client).isNotNegative();
        assertThat(matrix.path("columns").get(0).path("service").asText()).isEqualTo("cluster2/default/nginx");
        assertThat(matrix.path("cells").get(client).get(0).path("reach").asText()).isEqualTo("yes");
    }
}
