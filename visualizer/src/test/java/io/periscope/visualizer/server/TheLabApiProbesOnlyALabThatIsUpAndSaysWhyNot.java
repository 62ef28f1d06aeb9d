package io.periscope.visualizer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.lab.LabStatus;
import io.periscope.visualizer.lab.ScriptedLab;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/lab} says whether the served file's lab is up and, when it is not, why and what
 * brings it up; {@code POST /api/lab/probe} goes to the lab only when it is up, one probe at a time,
 * and answers the trace document version 3: the simulated flow with what real packets did beside it.
 * A probe that cannot run is refused (403 not root, 409 no lab, another file's, an edited file's, a
 * file with errors, a server without the lab) with the lab's status, and the server keeps serving.
 */
class TheLabApiProbesOnlyALabThatIsUpAndSaysWhyNot {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private RunningServer running;

    @AfterEach
    void stop() {
        if (running != null) {
            running.close();
        }
    }

    private Path example() throws Exception {
        return ExampleFiles.copy("mag-globalnet.yaml", dir);
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    @Test
    void aServerWithoutTheLabSaysSoAndRefusesToProbe() throws Exception {
        Path file = example();
        running = new RunningServer(file);
        JsonNode status = json(running.get("/api/lab"));
        assertThat(status.path("condition").asText()).isEqualTo("unavailable");
        assertThat(status.path("up").asBoolean()).isFalse();
        assertThat(status.path("command").asText()).isEqualTo("./periscope serve " + file);
        HttpResponse<String> probe = running.post("/api/lab/probe", "{\"flow\": \"client-to-nginx\"}");
        assertThat(probe.statusCode()).isEqualTo(409);
        assertThat(json(probe).path("error").asText()).contains("started without the namespace lab").contains("run: ./periscope serve");
        assertThat(running.get("/api/document").statusCode()).isEqualTo(200);
    }

    @Test
    void aLabThatIsDownIsRefusedWith409NamingTheCommandThatBringsItUp() throws Exception {
        Path file = example();
        ScriptedLab lab = new ScriptedLab(ScriptedLab.down(file));
        running = new RunningServer(file, lab);
        JsonNode status = json(running.get("/api/lab"));
        assertThat(status.path("condition").asText()).isEqualTo("down");
        assertThat(status.path("command").asText()).isEqualTo("./periscope lab up " + file);
        HttpResponse<String> probe = running.post("/api/lab/probe", "{\"flow\": \"client-to-nginx\"}");
        assertThat(probe.statusCode()).isEqualTo(409);
        JsonNode refusal = json(probe);
        assertThat(refusal.path("error").asText()).isEqualTo("no lab of topology 'test' is up; run: ./periscope lab up " + file);
        assertThat(refusal.path("lab").path("condition").asText()).isEqualTo("down");
        assertThat(lab.probed).as("the lab was not asked to probe").isEmpty();
    }

    @Test
    void notRootIs403AndALabOfAnotherOrAnEditedFileIs409() throws Exception {
        Path file = example();
        ScriptedLab lab = new ScriptedLab(new LabStatus(LabStatus.Condition.NOT_ROOT, "the lab's state and its network namespaces are root's",
                Optional.of("sudo ./periscope serve " + file)));
        running = new RunningServer(file, lab);
        HttpResponse<String> probe = running.post("/api/lab/probe", "{}");
        assertThat(probe.statusCode()).isEqualTo(403);
        assertThat(json(probe).path("error").asText()).contains("root's").contains("sudo ./periscope serve");
        for (LabStatus.Condition condition : new LabStatus.Condition[] {LabStatus.Condition.OTHER_FILE, LabStatus.Condition.CHANGED,
                LabStatus.Condition.BUILDING}) {
            lab.status(new LabStatus(condition, "not this file's lab (" + condition + ")", Optional.of("./periscope lab down " + file)));
            HttpResponse<String> refused = running.post("/api/lab/probe", "{}");
            assertThat(refused.statusCode()).as("%s", condition).isEqualTo(409);
            assertThat(json(refused).path("lab").path("condition").asText()).isEqualTo(condition.jsonName());
        }
        assertThat(lab.probed).isEmpty();
    }

    @Test
    void aProbeOfALabThatIsUpAnswersVersionThreeWithTheObservedHopsBesideTheSimulatedOnes() throws Exception {
        Path file = example();
        ScriptedLab lab = new ScriptedLab(ScriptedLab.up())
                .tamper(new ScriptedLab.Tamper(1, "forward", 2, "depart.src", "192.0.2.99"));
        running = new RunningServer(file, lab);
        assertThat(json(running.get("/api/lab")).path("up").asBoolean()).isTrue();
        HttpResponse<String> response = running.post("/api/lab/probe", "{\"flow\": \"client-to-nginx\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode document = json(response);
        assertThat(document.path("format").asText()).isEqualTo("periscope-trace");
        assertThat(document.path("version").asInt()).isEqualTo(3);
        assertThat(document.path("lab").path("condition").asText()).isEqualTo("up");
        assertThat(document.path("revision").asLong()).isEqualTo(1);
        assertThat(document.path("matchesSimulation").asBoolean()).isFalse();
        assertThat(document.path("log").get(0).asText()).contains("client-to-nginx");
        assertThat(lab.probed).containsExactly(Optional.of("client-to-nginx"));

        assertThat(document.path("flows")).hasSize(1);
        JsonNode flow = document.path("flows").get(0);
        // Version 2's flow, unchanged: the simulator's four paths with their steps.
        assertThat(flow.path("name").asText()).isEqualTo("client-to-nginx");
        assertThat(flow.path("paths")).hasSize(4);
        assertThat(flow.path("paths").get(0).path("forward").path("hops").get(0).path("steps")).isNotEmpty();
        JsonNode observed = flow.path("observed");
        assertThat(observed.has("name")).isFalse();
        assertThat(observed.path("paths")).hasSize(4);
        assertThat(observed.path("matchesSimulation").asBoolean()).isFalse();
        JsonNode differing = observed.path("paths").get(1);
        assertThat(differing.path("matchesSimulation").asBoolean()).isFalse();
        assertThat(differing.path("firstDifference").path("field").asText()).isEqualTo("depart.src");
        assertThat(differing.path("firstDifference").path("hop").asInt()).isEqualTo(3);
        assertThat(differing.path("forward").path("hops").get(2).path("depart").path("src").asText()).isEqualTo("192.0.2.99");
        assertThat(differing.path("firstDifference").path("simulated").asText())
                .isEqualTo(flow.path("paths").get(1).path("forward").path("hops").get(2).path("depart").path("src").asText());
        assertThat(observed.path("paths").get(0).path("matchesSimulation").asBoolean()).isTrue();
    }

    @Test
    void anEmptyBodyProbesEveryFlowOfTheFile() throws Exception {
        Path file = example();
        ScriptedLab lab = new ScriptedLab(ScriptedLab.up());
        running = new RunningServer(file, lab);
        HttpResponse<String> response = running.post("/api/lab/probe", "");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(lab.probed).containsExactly(Optional.empty());
        JsonNode document = json(response);
        assertThat(document.path("matchesSimulation").asBoolean()).isTrue();
        assertThat(document.path("flows")).allMatch(f -> f.path("observed").path("matchesSimulation").asBoolean());
    }

    @Test
    void malformedProbeRequestsAre400AndNameWhatToSend() throws Exception {
        Path file = example();
        ScriptedLab lab = new ScriptedLab(ScriptedLab.up());
        running = new RunningServer(file, lab);
        HttpResponse<String> unknown = running.post("/api/lab/probe", "{\"flow\": \"no-such-flow\"}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(json(unknown).path("error").asText()).contains("no flow named 'no-such-flow'").contains("client-to-nginx");
        HttpResponse<String> notJson = running.post("/api/lab/probe", "{flow");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(json(notJson).path("error").asText()).contains("not JSON").contains("{\"flow\": \"NAME\"}");
        assertThat(running.post("/api/lab/probe", "{\"flow\": 3}").statusCode()).isEqualTo(400);
        assertThat(running.post("/api/lab/probe", "[]").statusCode()).isEqualTo(400);
        assertThat(running.get("/api/lab/probe").statusCode()).isEqualTo(400);
        assertThat(running.post("/api/lab", "{}").statusCode()).isEqualTo(400);
        assertThat(lab.probed).isEmpty();
        assertThat(running.post("/api/lab/probe", "{}").statusCode()).isEqualTo(200);
    }

    @Test
    void aFileWithErrorsIsNotProbed() throws Exception {
        Path file = example();
        ScriptedLab lab = new ScriptedLab(ScriptedLab.up());
        running = new RunningServer(file, lab);
        Files.writeString(file, Files.readString(file).replaceFirst("podCIDRs: \\[10.0.0.0/16]", "podCIDRs: [10.0.0.0/33]"));
        running.server.workspace().reload();
        assertThat(json(running.get("/api/lab")).path("condition").asText()).isEqualTo("invalid-file");
        HttpResponse<String> probe = running.post("/api/lab/probe", "{}");
        assertThat(probe.statusCode()).isEqualTo(409);
        assertThat(json(probe).path("error").asText()).contains("has errors");
        assertThat(lab.probed).isEmpty();
    }

    @Test
    void oneProbeAtATime() throws Exception {
        Path file = example();
        CountDownLatch release = new CountDownLatch(1);
        ScriptedLab lab = new ScriptedLab(ScriptedLab.up()).holdProbes(release);
        running = new RunningServer(file, lab);
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return running.post("/api/lab/probe", "{}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(lab.probing.await(20, TimeUnit.SECONDS)).isTrue();
        try {
            HttpResponse<String> second = running.post("/api/lab/probe", "{}");
            assertThat(second.statusCode()).isEqualTo(409);
            assertThat(json(second).path("error").asText()).contains("already running");
        } finally {
            release.countDown();
        }
        assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(lab.probed).hasSize(1);
    }
}
