package io.periscope.lab.ovn;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A daemon that does not start is named, with its owner and the end of its log; a cluster whose
 * start fails half way stops the daemons it had started and removes its run directory. Needs root
 * and Open vSwitch / OVN; run under {@code flock /tmp/periscope-lab.lock}.
 */
class AnOvnClusterThatFailsToStartSaysWhyAndLeavesNothing {

    private final CommandRunner runner = ProcessCommandRunner.here();
    private final String namespace = "pkof" + ProcessHandle.current().pid();
    private Path temporary;

    @BeforeEach
    void namespace() throws IOException {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "the OVN lab creates network namespaces, which needs root");
        Optional<String> unavailable = OvnPrograms.datapathUnavailable();
        assumeTrue(unavailable.isEmpty(), unavailable::orElseThrow);
        temporary = Files.createTempDirectory("pkof");
        runner.run(Command.of("ip", "netns", "add", TestNamespace.deletedOnExit(namespace)));
    }

    @AfterEach
    void removeNamespace() throws IOException {
        if (temporary != null) {
            OvnDaemons.stopAllUnder(temporary);
            runner.execute(Command.of("ip", "netns", "del", namespace));
        }
    }

    @Test
    void aDaemonThatCannotStartIsNamedWithTheEndOfItsLog() throws IOException {
        Path directory = Files.createDirectories(temporary.resolve("n1"));
        assertThatThrownBy(() -> OvnDaemons.start("ovsdb-server", "node n1", namespace, directory, "ovsdb-server", true,
                List.of("--remote=punix:" + directory.resolve("db.sock"), directory.resolve("no-such.db").toString())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ovsdb-server of node n1 (namespace " + namespace)
                .hasMessageContaining("failed to start (exit ")
                .hasMessageContaining("no-such.db")
                .hasMessageContaining(directory.resolve("ovsdb-server.log").toString());
        assertThat(processesNaming(temporary)).isEmpty();
    }

    @Test
    void aStartThatFailsHalfWayStopsWhatItStartedAndRemovesItsDirectory() {
        Path runDirectory = temporary.resolve("c1");
        // The node has no device eth9: the chassis fails after its ovsdb-server and ovs-vswitchd, and the control plane, run.
        OvnClusterSpec spec = new OvnClusterSpec("c1", Ipv4Prefix.parse("10.244.0.0/16"), Ipv4Prefix.parse("100.64.0.0/16"), List.of(
                new OvnNodeSpec("n1", namespace, "eth9", Ipv4Address.parse("172.30.0.1"), 24, Ipv4Prefix.parse("10.244.1.0/24"))));
        assertThatThrownBy(() -> OvnCluster.start(runner, spec, runDirectory)).hasMessageContaining("eth9");
        assertThat(runDirectory).doesNotExist();
        assertThat(processesNaming(temporary)).as("daemons left running").isEmpty();
    }

    /** The pids of processes whose command line names something under {@code directory}. */
    private static List<String> processesNaming(Path directory) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String commandLine = new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                    if (commandLine.contains(directory.toString())) {
                        found.add(process.getFileName() + ": " + commandLine);
                    }
                } catch (IOException gone) {
                    // the process ended while the list was read
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        return found;
    }
}
