package io.periscope.visualizer.export;

import io.periscope.visualizer.scene.SceneLayout;
import io.periscope.visualizer.session.TraceDocument;

import java.util.List;

/**
 * Loads and links the code a picture needs (ELK and the EMF graph model under it, Jackson's object
 * mapper, the page's assets) on a thread of its own, while the command line is parsed and the file
 * loaded, planned and traced on the main one. EMF's and picocli's class files are Java 5's, which the
 * JVM's start-up cache cannot hold, so a command that draws pays for loading and verifying them: about
 * a third of {@code trace --html}. Started early, that work runs beside the rest instead of after it.
 */
public final class PictureWarmUp {

    private PictureWarmUp() {
    }

    /** Starts the warm-up on a daemon thread (it never delays the command's exit) and returns at once. */
    public static void start() {
        Thread.ofPlatform().name("periscope-picture-warm-up").daemon().start(PictureWarmUp::run);
    }

    static void run() {
        try {
            // Two clusters of two hosts and a cable: every class a real layout loads, in a few milliseconds once loaded.
            SceneLayout.ClusterInput left = new SceneLayout.ClusterInput("a", 62, 100,
                    List.of(new SceneLayout.HostInput("a/n", 80, 44), new SceneLayout.HostInput("a/p", 80, 44)), List.of(List.of("a/p", "a/n")));
            SceneLayout.ClusterInput right = new SceneLayout.ClusterInput("b", 62, 100,
                    List.of(new SceneLayout.HostInput("b/n", 80, 44)), List.of());
            SceneLayout.place(new SceneLayout.Input(List.of(left, right), List.of(List.of("a", "b"))));
            TraceDocument.errors(List.of());
            HtmlExport.assets();
        } catch (RuntimeException | LinkageError e) {
            // Only a head start: the command itself meets (and reports) any real failure.
        }
    }
}
