package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
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
 * SIGTERM while {@code periscope lab probe} runs, in a process of its own: it says so, exits 143,
 * and leaves no process in the lab's namespaces (no {@code ping} it started); the lab itself stays
 * up, as {@code lab up} left it.
 */
class ProbeStopsOnSigtermLeavingNothingBehind {

    private static final Path EXAMPLE = Path.of("..", "..", "examples", "mag-globalnet.yaml");

    @TempDir
    Path directory;

    private Path file;

    @AfterEach
    void labDown() {
        if (file != null) {
            PeriscopeRun.of("lab", "down", file.toString());
        }
    }

    @Test
    void sigtermDuringProbeExits143AndLeavesNoProcessInTheLab() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        String topology = "clitest-probeterm-" + ProcessHandle.current().pid();
        String text = Files.readString(EXAMPLE).replace("name: mag-globalnet", "name: " + topology);
        file = Files.writeString(directory.resolve("lab.yaml"), text);
        PeriscopeRun up = PeriscopeRun.of("lab", "up", file.toString());
        assertThat(up.status()).as(up.err()).isZero();

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process probe = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PeriscopeCommand.class.getName(), "lab", "probe", file.toString()).redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        boolean signalled = false;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                if (!signalled && line.contains(": capturing on ")) {
                    new ProcessBuilder("kill", "-TERM", Long.toString(probe.pid())).start().waitFor();
                    signalled = true;
                }
            }
        }
        assertThat(probe.waitFor(30, TimeUnit.SECONDS)).as("the probe ends").isTrue();

        assertThat(output).as("%s", output).anyMatch(l -> l.contains(": capturing on "))
                .anyMatch(l -> l.startsWith("periscope: terminated (SIGTERM)"))
                .noneMatch(l -> l.contains("internal error"));
        assertThat(probe.exitValue()).isEqualTo(143);
        for (String namespace : labNamespaces(LabNames.of(topology))) {
            assertThat(output("ip", "netns", "pids", namespace)).as("processes left in %s", namespace).isBlank();
        }
    }

    private static List<String> labNamespaces(LabNames names) throws IOException, InterruptedException {
        return Arrays.stream(output("ip", "netns", "list").split("\n")).map(l -> l.split(" ")[0])
                .filter(n -> n.startsWith(names.prefix())).toList();
    }

    private static String output(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return text;
    }
}
