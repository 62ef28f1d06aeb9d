package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * mag-globalnet's lab brought up with {@code periscope lab up} under a name of the test's own (so it
 * never meets a lab someone started by hand), for the command-line tests that act on a running lab;
 * taken down with {@code lab down} after each test, whatever the test left.
 */
final class ExampleLabOfATest implements AfterEachCallback {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-globalnet.yaml");

    private Path file;
    private String topology;

    /**
     * Writes the example renamed {@code prefix-<pid>} into {@code directory} and brings its lab up.
     *
     * @return the lab's namespaces
     */
    List<String> up(Path directory, String prefix) throws IOException, InterruptedException {
        topology = prefix + "-" + ProcessHandle.current().pid();
        file = Files.writeString(directory.resolve("lab.yaml"), Files.readString(EXAMPLE).replace("name: mag-globalnet", "name: " + topology));
        PeriscopeRun up = PeriscopeRun.of("lab", "up", file.toString());
        assertThat(up.status()).as(up.err()).isZero();
        List<String> namespaces = LabOnTheMachine.namespaces(names());
        assertThat(namespaces).isNotEmpty();
        return namespaces;
    }

    Path file() {
        return file;
    }

    LabNames names() {
        return LabNames.of(topology);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (file != null) {
            PeriscopeRun.of("lab", "down", file.toString());
        }
    }
}
