package io.periscope.visualizer.server;

import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page hears of every save through {@code /events}; a save that breaks the file gives the errors
 * with their line instead of a picture, and the next good save gives the picture back.
 */
class SavingTheFilePushesARevisionAndInvalidSavesShowTheirErrors {

    @TempDir
    Path dir;

    @Test
    void eachSaveIsAnEventAndTheDocumentFollowsIt() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String good = Files.readString(file);
        try (RunningServer running = new RunningServer(file)) {
            BlockingQueue<String> events = new LinkedBlockingQueue<>();
            running.client.sendAsync(HttpRequest.newBuilder(running.uri("/events")).build(), HttpResponse.BodyHandlers.ofLines())
                    .thenAccept(response -> {
                        try (Stream<String> lines = response.body()) {
                            lines.filter(l -> l.startsWith("data: ")).forEach(events::add);
                        }
                    });
            assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("data: 1");

            Files.writeString(file, good.replace("name: client-to-nginx", "name: client-to-web"));
            assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("data: 2");
            assertThat(running.get("/api/document").body()).contains("\"name\":\"client-to-web\"").contains("\"revision\":2");

            List<String> lines = good.lines().toList();
            int broken = lines.indexOf(lines.stream().filter(l -> l.contains("podCIDRs: [10.0.0.0/16]")).findFirst().orElseThrow()) + 1;
            Files.writeString(file, good.replaceFirst("podCIDRs: \\[10.0.0.0/16]", "podCIDRs: [10.0.0.0/33]"));
            assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("data: 3");
            String invalid = running.get("/api/document").body();
            assertThat(invalid).contains("\"errors\"").contains("\"line\":" + broken).doesNotContain("\"topology\"");

            Files.writeString(file, good);
            assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("data: 4");
            assertThat(running.get("/api/document").body()).contains("\"topology\"").doesNotContain("\"errors\"");
        }
    }
}
