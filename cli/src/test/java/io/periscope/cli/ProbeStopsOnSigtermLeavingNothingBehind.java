package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.supervisor.LabSupervisor;
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
 * SIGTERM while {@code periscope lab probe} runs, in a process of its own, once its captures are
 * open in the lab's namespaces: it says so, exits 143, and leaves nothing behind: no process in the
 * lab's namespaces (no {@code ping} it started), no packet socket there (its captures) and no
 * program of its own anywhere; the lab itself stays up, every namespace as {@code lab up} left it.
 * How fast it stops is measured by {@code scripts/benchmark-probe-stop}, not asserted here: the
 * wait below only keeps a probe that never ends from hanging the build.
 */
class ProbeStopsOnSigtermLeavingNothingBehind {

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
    void sigtermWhileCapturingExits143AndLeavesNothingBehind() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        String topology = "clitest-probeterm-" + ProcessHandle.current().pid();
        String text = Files.readString(EXAMPLE).replace("name: mag-globalnet", "name: " + topology);
        file = Files.writeString(directory.resolve("lab.yaml"), text);
        PeriscopeRun up = PeriscopeRun.of("lab", "up", file.toString());
        assertThat(up.status()).as(up.err()).isZero();
        List<String> lab = labNamespaces(LabNames.of(topology));
        assertThat(lab).isNotEmpty();
        assertThat(packetSockets(lab)).as("no capture before the probe").isZero();

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process probe = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PeriscopeCommand.class.getName(), "lab", "probe", file.toString()).redirectErrorStream(true).start();
        List<String> output = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    output.add(line);
                }
            } catch (IOException e) {
                output.add("reading the probe's output failed: " + e);
            }
        });
        // Signalled while its captures are open in the lab (its echo servers with them), so that
        // what it must close on the signal is there to be closed.
        boolean capturing = false;
        while (probe.isAlive() && !capturing) {
            capturing = output.stream().anyMatch(l -> l.contains(": capturing on ")) && packetSockets(lab) > 0;
        }
        assertThat(capturing).as("the probe ended before its captures were seen open: %s", output).isTrue();
        new ProcessBuilder("kill", "-TERM", Long.toString(probe.pid())).start().waitFor();
        assertThat(probe.waitFor(60, TimeUnit.SECONDS)).as("the probe ends").isTrue();
        reader.join(10_000);

        assertThat(probe.exitValue()).as("%s", output).isEqualTo(143);
        assertThat(output).as("%s", output).anyMatch(l -> l.contains("periscope: terminated (SIGTERM)"))
                .noneMatch(l -> l.contains("internal error"));
        assertThat(processesNotTheSupervisors(lab)).as("processes left in the lab's namespaces").isEmpty();
        assertThat(packetSockets(lab)).as("packet sockets left in the lab's namespaces").isZero();
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(file.toString())))
                .as("a program of the probe's still running").isEmpty();
        assertThat(labNamespaces(LabNames.of(topology))).as("the lab stays up, as lab up left it").containsExactlyInAnyOrderElementsOf(lab);
    }

    /**
     * The processes in these namespaces that the lab's supervisor did not start, as {@code namespace:pid command line}. The
     * supervisor, which {@code lab up} leaves running, runs its agents' programs (ip, iptables-restore, tc) in the nodes'
     * namespaces at any time; a process that ended before it was looked at is not left either.
     */
    private static List<String> processesNotTheSupervisors(List<String> namespaces) throws IOException, InterruptedException {
        List<String> found = new java.util.ArrayList<>();
        for (String namespace : namespaces) {
            for (String pid : output("ip", "netns", "pids", namespace).split("\n")) {
                if (pid.isBlank()) {
                    continue;
                }
                java.util.Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(pid.strip()));
                if (process.isPresent() && process.get().isAlive() && !startedByTheSupervisor(process.get())) {
                    found.add(namespace + ":" + pid.strip() + " " + process.get().info().commandLine().orElse("(command line unknown)"));
                }
            }
        }
        return found;
    }

    private static boolean startedByTheSupervisor(ProcessHandle process) {
        for (java.util.Optional<ProcessHandle> up = process.parent(); up.isPresent(); up = up.get().parent()) {
            if (up.get().info().commandLine().orElse("").contains(LabSupervisor.class.getName())) {
                return true;
            }
        }
        return false;
    }

    private static List<String> labNamespaces(LabNames names) throws IOException, InterruptedException {
        return Arrays.stream(output("ip", "netns", "list").split("\n")).map(l -> l.split(" ")[0])
                .filter(n -> n.startsWith(names.prefix())).toList();
    }

    /** Packet sockets open in these namespaces: /proc/net/packet lists its reader's namespace's, so each is read from inside. */
    private static long packetSockets(List<String> namespaces) throws IOException, InterruptedException {
        long sockets = 0;
        for (String namespace : namespaces) {
            sockets += output("ip", "netns", "exec", namespace, "cat", "/proc/net/packet").lines().skip(1).filter(l -> !l.isBlank()).count();
        }
        return sockets;
    }

    private static String output(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return text;
    }
}
