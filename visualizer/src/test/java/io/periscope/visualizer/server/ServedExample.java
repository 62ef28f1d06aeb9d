package io.periscope.visualizer.server;

import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A copy of a shipped example served on 127.0.0.1 for the whole test class, removed afterwards. */
final class ServedExample implements BeforeAllCallback, AfterAllCallback {

    private final String example;
    private Path dir;
    RunningServer running;

    ServedExample(String example) {
        this.example = example;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("periscope-served-");
        running = new RunningServer(ExampleFiles.copy(example, dir));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        running.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
