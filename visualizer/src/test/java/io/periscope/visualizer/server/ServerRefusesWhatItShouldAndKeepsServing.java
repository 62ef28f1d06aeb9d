package io.periscope.visualizer.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each refusal answers with its status and a reason, and the next ordinary request is still answered:
 * a refusal never takes the server down.
 */
class ServerRefusesWhatItShouldAndKeepsServing {

    @RegisterExtension
    static final ServedExample served = new ServedExample("mag-globalnet.yaml");

    private static void stillServing() throws Exception {
        HttpResponse<String> page = served.running.get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Periscope</title>");
        assertThat(served.running.get("/api/document").body()).contains("\"version\":2");
    }

    @Test
    void unknownPathsAre404() throws Exception {
        HttpResponse<String> response = served.running.get("/no/such/page");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("no such page");
        assertThat(served.running.get("/assets/missing.js").statusCode()).isEqualTo(404);
        stillServing();
    }

    @Test
    void theServerListensOnLoopbackAndAnswersOnlyLoopbackNames() throws Exception {
        assertThat(served.running.server.address().getAddress().isLoopbackAddress()).isTrue();
        // A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) sends its own Host header.
        String answer = raw("GET / HTTP/1.1\r\nHost: attacker.example:80\r\nConnection: close\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 403");
        stillServing();
    }

    @Test
    void noDirectoryTraversal() throws Exception {
        for (String path : new String[] {"/assets/../../../../etc/passwd", "/assets/..%2f..%2f..%2fetc%2fpasswd",
                "/assets/%2e%2e/pom.xml", "/assets//etc/passwd", "/../pom.xml", "/assets/app.js/../../index.html",
                "/assets/io/periscope/visualizer/web/app.js"}) {
            String answer = raw("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            assertThat(answer).as(path).startsWith("HTTP/1.1 404");
            assertThat(answer).as(path).doesNotContain("root:");
        }
        assertThat(served.running.get("/assets/app.js").statusCode()).isEqualTo(200);
        stillServing();
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        String huge = "{\"fail\": [\"" + "x".repeat(VisualizerServer.MAX_BODY_BYTES + 10) + "\"]}";
        HttpResponse<String> response = served.running.post("/api/whatif", huge);
        assertThat(response.statusCode()).isEqualTo(413);
        stillServing();
    }

    @Test
    void malformedApiRequestsAre400WithAMessage() throws Exception {
        HttpResponse<String> notJson = served.running.post("/api/whatif", "{fail: [");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(notJson.body()).contains("not JSON");

        HttpResponse<String> unknownNode = served.running.post("/api/whatif", "{\"fail\": [\"cluster9/gw-1\"]}");
        assertThat(unknownNode.statusCode()).isEqualTo(400);
        assertThat(unknownNode.body()).contains("there is no cluster cluster9").contains("cluster1, cluster2");

        HttpResponse<String> missingTo = served.running.post("/api/trace", "{\"from\": \"cluster1/default/client\"}");
        assertThat(missingTo.statusCode()).isEqualTo(400);
        assertThat(missingTo.body()).contains("\\\"to\\\" is missing");

        HttpResponse<String> badTarget = served.running.post("/api/trace",
                "{\"from\": \"cluster1/default/client\", \"to\": \"nginx.default.svc.example.org:80\"}");
        assertThat(badTarget.statusCode()).isEqualTo(400);
        assertThat(badTarget.body()).contains("nginx.default.svc.example.org");

        HttpResponse<String> unknownSource = served.running.post("/api/trace",
                "{\"from\": \"cluster1/default/nobody\", \"to\": \"nginx.default.svc.clusterset.local:80\"}");
        assertThat(unknownSource.statusCode()).isEqualTo(400);
        assertThat(unknownSource.body()).contains("nobody");

        HttpResponse<String> badProtocol = served.running.post("/api/trace",
                "{\"from\": \"cluster1/default/client\", \"to\": \"nginx.default.svc.clusterset.local:80\", \"protocol\": \"sctp\"}");
        assertThat(badProtocol.statusCode()).isEqualTo(400);
        assertThat(badProtocol.body()).contains("not tcp, udp or icmp");

        HttpResponse<String> wrongMethod = served.running.get("/api/trace");
        assertThat(wrongMethod.statusCode()).isEqualTo(400);
        assertThat(wrongMethod.body()).contains("use POST");

        String garbage = raw("NOT A REQUEST\r\n\r\n");
        assertThat(garbage).startsWith("HTTP/1.1 400");
        stillServing();
    }

    /** One request written byte for byte, so that no client tidies the path first. */
    private static String raw(String request) throws Exception {
        try (Socket socket = new Socket(served.running.server.address().getAddress(), served.running.server.address().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder answer = new StringBuilder();
            char[] buffer = new char[8192];
            int read;
            while ((read = in.read(buffer)) > 0) {
                answer.append(buffer, 0, read);
            }
            return answer.toString();
        }
    }
}
