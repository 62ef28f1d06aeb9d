package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabStateFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
        for (String namespace : labNamespaces(names)) {
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
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process up = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PeriscopeCommand.class.getName(), "lab", "up", file.toString()).redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                if (line.startsWith("namespaces:")) {
                    new ProcessBuilder("kill", "-INT", Long.toString(up.pid())).start().waitFor();
                }
            }
        }
        assertThat(up.waitFor(60, TimeUnit.SECONDS)).as("the interrupted up ends").isTrue();

        assertThat(output).as("%s", output).anyMatch(l -> l.startsWith("namespaces:"))
                // contains: the signal handler writes while the command may be printing progress on the other stream
                .anyMatch(l -> l.contains("periscope: interrupted (SIGINT)"))
                .noneMatch(l -> l.contains("internal error") || l.contains("this is a bug") || l.startsWith("up: "));
        assertThat(up.exitValue()).isEqualTo(130);
        assertThat(labNamespaces(LabNames.of(topology))).isEmpty();
        assertThat(new LabStateFile().read(LabNames.of(topology).hash())).isEmpty();
    }

    private static List<String> labNamespaces(LabNames names) throws IOException, InterruptedException {
        Process list = new ProcessBuilder("ip", "netns", "list").start();
        String text = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        list.waitFor();
        return Arrays.stream(text.split("\n")).map(l -> l.split(" ")[0]).filter(n -> n.startsWith(names.prefix())).toList();
    }
}
