package io.periscope.visualizer.browser;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.ClusterSet;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.lab.Lab;
import io.periscope.visualizer.lab.LabStatus;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failure of the server itself reaches the page: the 500's message is shown where the answer would
 * have been, not an empty view waiting for an answer that never comes.
 */
class AServerFailureIsShownOnThePageInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    /** A lab whose own status check breaks in a way the server foresees no refusal for. */
    private static final class BrokenLab implements Lab {
        @Override
        public LabStatus status(Path file, ClusterSet set) {
            throw new java.util.NoSuchElementException("no namespace list");
        }

        @Override
        public ObjectNode probe(Path file, ClusterSet set, Optional<String> flow, Consumer<String> progress) {
            throw new UnsupportedOperationException("never probed here");
        }
    }

    @Test
    void theLabViewShowsTheServersErrorMessage() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-globalnet.yaml", dir), new BrokenLab()), "?view=lab");
        browser.awaitRevision();

        browser.chromium().awaitTrue("the lab status shows the server's error",
                () -> browser.chromium().all("#lab-status").stream().anyMatch(s -> s.getText().contains("no namespace list")));
        assertThat(browser.chromium().find("#lab-status").getText())
                .contains("internal error: java.util.NoSuchElementException: no namespace list");
        // The browser logs the 500 itself; nothing else may be on its console.
        assertThat(browser.chromium().consoleErrors()).allSatisfy(error -> assertThat(error).contains("500"));
    }
}
