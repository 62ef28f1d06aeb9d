package io.periscope.visualizer.session;

import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A save that makes reading or drawing fail with an Error (a self-referencing alias overflowed the stack)
 * used to end the watch silently: the page stayed at its revision for every later save. Now the failure is
 * told on stderr and shown on the page, and the next valid save is drawn.
 */
class TheWatchKeepsDrawingAfterASaveFailsToLoad {

    @TempDir
    Path dir;

    @Test
    void aSelfReferencingAliasIsShownAndTheNextValidSaveIsDrawn() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String valid = Files.readString(file);
        Workspace workspace = new Workspace(file);
        BlockingQueue<Long> revisions = new LinkedBlockingQueue<>();
        BlockingQueue<String> said = new LinkedBlockingQueue<>();
        try (TopologyWatch watch = new TopologyWatch(workspace, revisions::add, said::add)) {
            Files.writeString(file, "name: r\nclusters: &c [*c]\n");

            assertThat(revisions.poll(10, TimeUnit.SECONDS)).isEqualTo(2L);
            assertThat(workspace.document(List.of())).contains("inside itself");
            assertThat(said.poll(1, TimeUnit.SECONDS)).contains("inside itself").contains("revision 2");

            Files.writeString(file, valid.replace("name: client-to-nginx", "name: client-to-web"));

            assertThat(revisions.poll(10, TimeUnit.SECONDS)).isEqualTo(3L);
            assertThat(workspace.document(List.of())).contains("\"name\":\"client-to-web\"");
            assertThat(said.poll(1, TimeUnit.SECONDS)).contains("loads again").contains("revision 3");
        }
    }

    @Test
    void anErrorWhileDrawingIsShownAndTheNextSaveIsDrawn() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String valid = Files.readString(file);
        AtomicBoolean broken = new AtomicBoolean(false);
        Workspace workspace = new Workspace(file, set -> {
            if (broken.get()) {
                throw new AssertionError("planner bug");
            }
            return Scenario.of(set, List.of());
        });
        BlockingQueue<Long> revisions = new LinkedBlockingQueue<>();
        BlockingQueue<String> said = new LinkedBlockingQueue<>();
        try (TopologyWatch watch = new TopologyWatch(workspace, revisions::add, said::add)) {
            broken.set(true);
            Files.writeString(file, valid.replace("name: client-to-nginx", "name: client-to-db"));

            assertThat(revisions.poll(10, TimeUnit.SECONDS)).isEqualTo(2L);
            assertThat(workspace.state()).isInstanceOf(Workspace.Invalid.class);
            assertThat(workspace.document(List.of())).contains("planner bug");
            assertThat(said.poll(1, TimeUnit.SECONDS)).contains("planner bug");

            broken.set(false);
            Files.writeString(file, valid.replace("name: client-to-nginx", "name: client-to-web"));

            assertThat(revisions.poll(10, TimeUnit.SECONDS)).isEqualTo(3L);
            assertThat(workspace.document(List.of())).contains("\"name\":\"client-to-web\"");
        }
    }
}
