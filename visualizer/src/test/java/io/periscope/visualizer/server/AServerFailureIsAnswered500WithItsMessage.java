package io.periscope.visualizer.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.ClusterSet;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.lab.Lab;
import io.periscope.visualizer.lab.LabStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An exception the request router has no refusal for (here the lab's own check breaking) is the
 * server's failure: the page gets 500 and the message at once, not a request left unanswered until it
 * times out, and the server keeps serving.
 */
class AServerFailureIsAnswered500WithItsMessage {

    @TempDir
    Path dir;

    /** A lab whose status check itself breaks, as `ip netns` failing for an unforeseen reason would. */
    private static final class BrokenLab implements Lab {
        private final java.util.function.Supplier<Throwable> failure;

        BrokenLab() {
            this(() -> new java.util.NoSuchElementException("no namespace list"));
        }

        BrokenLab(java.util.function.Supplier<Throwable> failure) {
            this.failure = failure;
        }

        @Override
        public LabStatus status(Path file, ClusterSet set) {
            Throwable thrown = failure.get();
            if (thrown instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) thrown;
        }

        @Override
        public ObjectNode probe(Path file, ClusterSet set, Optional<String> flow, Consumer<String> progress) {
            throw new UnsupportedOperationException("never probed here");
        }
    }

    @Test
    void aBrokenLabCheckIs500WithTheMessageAndTheServerKeepsServing() throws Exception {
        try (RunningServer running = new RunningServer(ExampleFiles.copy("mag-globalnet.yaml", dir), new BrokenLab())) {
            HttpResponse<String> response = running.get("/api/lab");
            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(new ObjectMapper().readTree(response.body()).path("error").asText())
                    .isEqualTo("internal error: java.util.NoSuchElementException: no namespace list");
            assertThat(running.get("/api/document").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void anErrorNotAnExceptionIsAnswered500WithItsMessageToo() throws Exception {
        try (RunningServer running = new RunningServer(ExampleFiles.copy("mag-globalnet.yaml", dir),
                new BrokenLab(() -> new StackOverflowError("a trace too deep")))) {
            HttpResponse<String> response = running.get("/api/lab");
            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(new ObjectMapper().readTree(response.body()).path("error").asText())
                    .isEqualTo("internal error: java.lang.StackOverflowError: a trace too deep");
            assertThat(running.get("/api/document").statusCode()).isEqualTo(200);
        }
    }
}
