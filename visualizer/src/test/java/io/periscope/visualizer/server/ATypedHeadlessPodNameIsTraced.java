package io.periscope.visualizer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flow box takes a headless service's per-pod name ({@code pod.cluster.service.namespace.svc.clusterset.local}),
 * as the topology file's flows do: it resolves to that one pod's global address and is traced there.
 */
class ATypedHeadlessPodNameIsTraced {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ServedExample served = new ServedExample("globalnet-egress.yaml");

    @Test
    void aPodOfAnExportedHeadlessServiceIsReachedByItsOwnName() throws Exception {
        HttpResponse<String> response = served.running.post("/api/trace",
                "{\"from\": \"east/default/web\", \"to\": \"http-0.west.http.myproject.svc.clusterset.local:80\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode flow = JSON.readTree(response.body()).path("flows").get(0);
        assertThat(flow.path("to").asText()).isEqualTo("http-0.west.http.myproject.svc.clusterset.local:80");
        assertThat(flow.path("resolved").asText()).isEqualTo("242.1.255.253:80");
        assertThat(flow.path("paths")).isNotEmpty();
        flow.path("paths").forEach(path -> assertThat(path.path("disposition").asText()).isEqualTo("delivered"));
        // The last forward hop is the pod itself, not another pod of the service.
        JsonNode forward = flow.path("paths").get(0).path("forward").path("hops");
        assertThat(forward.get(forward.size() - 1).path("node").asText()).isEqualTo("west/myproject/http-0");
    }

    @Test
    void aPodNameOfAClusterThatIsNotThereSaysWhy() throws Exception {
        HttpResponse<String> response = served.running.post("/api/trace",
                "{\"from\": \"east/default/web\", \"to\": \"http-0.north.http.myproject.svc.clusterset.local:80\"}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("http-0.north.http.myproject.svc.clusterset.local");
    }
}
