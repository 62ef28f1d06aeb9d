package io.periscope.visualizer.session;

import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When planning a file that loaded fails otherwise than by a validation error (a bug), the page must
 * not keep drawing the previous picture as if it were the file's: it shows the failure, and saving the
 * same text again tries again.
 */
class ADrawingFailureIsShownAndTheSameSaveRetried {

    @TempDir
    Path dir;

    @Test
    void theFailureReplacesThePictureAndTheNextSaveOfTheSameTextDraws() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        AtomicBoolean broken = new AtomicBoolean(false);
        Workspace workspace = new Workspace(file, set -> {
            if (broken.get()) {
                throw new IllegalStateException("planner bug");
            }
            return Scenario.of(set, List.of());
        });
        assertThat(workspace.state()).isInstanceOf(Workspace.Ready.class);

        broken.set(true);
        Files.writeString(file, Files.readString(file).replace("name: client-to-nginx", "name: client-to-web"));
        assertThat(workspace.reload()).isTrue();
        assertThat(workspace.state()).isInstanceOf(Workspace.Invalid.class);
        assertThat(workspace.document(List.of())).contains("\"errors\"").contains("planner bug").contains("report it")
                .doesNotContain("\"topology\"");
        assertThat(workspace.reload()).as("the same failure again is no new revision").isFalse();

        broken.set(false);
        assertThat(workspace.reload()).as("the same text, saved again, is tried again").isTrue();
        assertThat(workspace.state()).isInstanceOf(Workspace.Ready.class);
        assertThat(workspace.document(List.of())).contains("\"name\":\"client-to-web\"");
    }
}
