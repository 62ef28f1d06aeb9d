package io.periscope.visualizer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The shipped examples, found from the module's directory, and copies of them that a test may edit. */
public final class ExampleFiles {

    private ExampleFiles() {
    }

    public static Path directory() {
        Path here = Path.of("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("examples")) && Files.exists(dir.resolve("examples/mag-globalnet.yaml"))) {
                return dir.resolve("examples");
            }
        }
        throw new IllegalStateException("no examples/ directory above " + here);
    }

    public static Path example(String name) {
        return directory().resolve(name);
    }

    public static List<Path> all() throws IOException {
        try (Stream<Path> files = Files.list(directory())) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    /** A copy in {@code dir} that the test can save over, as a user's editor would. */
    public static Path copy(String name, Path dir) throws IOException {
        return Files.copy(example(name), dir.resolve(name));
    }
}
