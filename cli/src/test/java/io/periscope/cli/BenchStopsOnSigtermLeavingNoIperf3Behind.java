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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * SIGTERM while {@code periscope lab bench} runs its iperf3 tests, in a process of its own: it says
 * so, exits 143, and no iperf3 (server or client) is left in the lab's namespaces; the lab stays up.
 * Only iperf3 is looked for: the lab's supervisor runs its agents' programs in the nodes' namespaces
 * every few seconds, which a look at all processes would catch now and then.
 */
class BenchStopsOnSigtermLeavingNoIperf3Behind {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-globalnet.yaml");

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
    void sigtermWhileTheTestsRunExits143AndStopsEveryIperf3() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        String topology = "clitest-benchterm-" + ProcessHandle.current().pid();
        file = Files.writeString(directory.resolve("lab.yaml"), Files.readString(EXAMPLE).replace("name: mag-globalnet", "name: " + topology));
        PeriscopeRun up = PeriscopeRun.of("lab", "up", file.toString());
        assertThat(up.status()).as(up.err()).isZero();
        List<String> lab = labNamespaces(LabNames.of(topology));
        assertThat(lab).isNotEmpty();

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process bench = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PeriscopeCommand.class.getName(), "lab", "bench", file.toString(), "--flows", "4", "--seconds", "60")
                .redirectErrorStream(true).start();
        List<String> output = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(bench.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    output.add(line);
                }
            } catch (IOException e) {
                output.add("reading the bench's output failed: " + e);
            }
        });
        // Signalled once its clients run: a server and a client are then in the lab's namespaces.
        boolean running = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (bench.isAlive() && !running && System.nanoTime() < deadline) {
            running = output.stream().anyMatch(l -> l.startsWith("bench: running ")) && iperf3In(lab).size() >= 2;
            Thread.sleep(20);
        }
        assertThat(running).as("the bench's iperf3 programs were not seen running: %s", output).isTrue();
        new ProcessBuilder("kill", "-TERM", Long.toString(bench.pid())).start().waitFor();
        assertThat(bench.waitFor(30, TimeUnit.SECONDS)).as("the bench ends").isTrue();
        reader.join(10_000);

        assertThat(bench.exitValue()).as("%s", output).isEqualTo(143);
        assertThat(output).as("%s", output).anyMatch(l -> l.contains("periscope: terminated (SIGTERM)"))
                .noneMatch(l -> l.contains("internal error"));
        // Killed processes take a moment to be reaped.
        long reaped = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!(iperf3In(lab).isEmpty() && programIn(lab, "conntrack").isEmpty()) && System.nanoTime() < reaped) {
            Thread.sleep(50);
        }
        assertThat(iperf3In(lab)).as("iperf3 left in the lab's namespaces").isEmpty();
        assertThat(programIn(lab, "conntrack")).as("the gateways' connection event listeners left").isEmpty();
        assertThat(labNamespaces(LabNames.of(topology))).as("the lab stays up").containsExactlyInAnyOrderElementsOf(lab);
    }

    /** The iperf3 processes in the lab's namespaces, as {@code namespace:pid}. */
    private static List<String> iperf3In(List<String> namespaces) throws IOException, InterruptedException {
        return programIn(namespaces, "iperf3");
    }

    /** The processes of {@code program} in the lab's namespaces, as {@code namespace:pid}. */
    private static List<String> programIn(List<String> namespaces, String program) throws IOException, InterruptedException {
        List<String> found = new java.util.ArrayList<>();
        for (String namespace : namespaces) {
            for (String pid : output("ip", "netns", "pids", namespace).split("\n")) {
                Path comm = Path.of("/proc", pid.strip(), "comm");
                if (!pid.isBlank() && Files.exists(comm) && readOrEmpty(comm).strip().equals(program)) {
                    found.add(namespace + ":" + pid.strip());
                }
            }
        }
        return found;
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
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
