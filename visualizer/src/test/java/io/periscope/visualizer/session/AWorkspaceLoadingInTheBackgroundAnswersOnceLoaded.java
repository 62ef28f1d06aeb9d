package io.periscope.visualizer.session;

import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * serve listens while the file's first plan, layout and traces are made: a request for the document
 * or the state meanwhile waits for that load and then answers from it, never from nothing.
 */
class AWorkspaceLoadingInTheBackgroundAnswersOnceLoaded {

    @TempDir
    Path dir;

    @Test
    void theDocumentWaitsForTheFirstLoadAndThenDrawsTheFile() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        CountDownLatch planning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Workspace workspace = Workspace.loadingInBackground(file, set -> {
            planning.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return Scenario.of(set, List.of());
        });
        assertThat(planning.await(30, TimeUnit.SECONDS)).as("the first load started on its own").isTrue();

        CompletableFuture<String> document = CompletableFuture.supplyAsync(() -> workspace.document(List.of()));
        CompletableFuture<Workspace.State> state = CompletableFuture.supplyAsync(workspace::state);
        Thread.sleep(300);
        assertThat(document).as("no document before the load is done").isNotDone();
        assertThat(state).as("no state before the load is done").isNotDone();

        release.countDown();
        assertThat(document.get(30, TimeUnit.SECONDS)).contains("\"name\":\"client-to-nginx\"").contains("\"revision\":1");
        assertThat(state.get(30, TimeUnit.SECONDS)).isInstanceOf(Workspace.Ready.class);
    }
}
