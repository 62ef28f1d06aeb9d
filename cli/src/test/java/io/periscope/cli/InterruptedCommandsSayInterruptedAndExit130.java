package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabStateFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Ctrl-C during {@code periscope lab up}, the command line in a process of its own: it removes what
 * it created, says it was interrupted (not "internal error ... this is a bug") and exits 130.
 */
class InterruptedCommandsSayInterruptedAndExit130 {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-globalnet.yaml");

    @TempDir
    Path directory;

    private String topology;

    @AfterEach
    void removeWhatIsLeft() throws Exception {
        if (topology == null) {
            return;
        }
        LabNames names = LabNames.of(topology);
        for (String namespace : LabOnTheMachine.namespaces(names)) {
            new ProcessBuilder("ip", "netns", "del", namespace).start().waitFor();
        }
        Files.deleteIfExists(new LabStateFile().pathFor(names.hash()));
    }

    @Test
    void ctrlCDuringLabUpRemovesTheLabSaysInterruptedAndExits130() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        topology = "clitest-interrupted-" + ProcessHandle.current().pid();
        Path file = Files.writeString(directory.resolve("lab.yaml"),
                Files.readString(EXAMPLE).replace("name: mag-globalnet", "name: " + topology));
        CommandInAProcess up = CommandInAProcess.start((command, line) -> {
            if (line.startsWith("namespaces:")) {
                command.signal("INT");
            }
        }, "lab", "up", file.toString());
        assertThat(up.ends(Duration.ofSeconds(60))).as("the interrupted up ends").isTrue();
        List<String> output = up.output();

        assertThat(output).as("%s", output).anyMatch(l -> l.startsWith("namespaces:"))
                // contains: the signal handler writes while the command may be printing progress on the other stream
                .anyMatch(l -> l.contains("periscope: interrupted (SIGINT)"))
                .noneMatch(l -> l.contains("internal error") || l.contains("this is a bug") || l.startsWith("up: "));
        assertThat(up.exitValue()).isEqualTo(130);
        assertThat(LabOnTheMachine.namespaces(LabNames.of(topology))).isEmpty();
        assertThat(new LabStateFile().read(LabNames.of(topology).hash())).isEmpty();
    }
}
