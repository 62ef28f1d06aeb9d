package io.periscope.lab;

import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.down.LabDown;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.probe.LabProbe;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.up.LabUp;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two files that name the same topology share namespace names, so the lab is tied to the file that
 * built it (path and content): {@code down}, {@code probe}, {@code fail}, {@code heal} and
 * {@code failover} of the other file are refused and leave the lab whole; all but {@code down} of the
 * file edited since are refused too; {@code down --force} of the other file removes it.
 */
class ALabBelongsToTheFileThatBuiltIt {

    @TempDir
    Path directory;

    private RunningLab lab;

    @BeforeEach
    void needsRoot() {
        RunningLab.assumeRoot();
    }

    @AfterEach
    void removeTheLab() {
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void anotherFileOfTheSameNameNeitherRemovesNorProbesIt() throws Exception {
        String name = "labtest-owner-" + ProcessHandle.current().pid();
        String text = Files.readString(Examples.file(Examples.GLOBALNET_EGRESS)).replace("name: globalnet-egress", "name: " + name);
        Path a = Files.writeString(directory.resolve("a.yaml"), text);
        Path b = Files.writeString(directory.resolve("b.yaml"), text + "\n# another file of the same name\n");
        ClusterSet set = TopologyLoader.load(a);
        Path state = Files.createDirectories(directory.resolve("state"));
        lab = RunningLab.planned(set, state);
        List<String> progress = new ArrayList<>();
        ProcessCommandRunner runner = ProcessCommandRunner.here();
        new LabUp(runner, lab.stateFile(), new ReconcilingAgents()).run(a, set, progress::add);

        assertThatThrownBy(() -> new LabDown(runner, lab.stateFile()).run(b, TopologyLoader.load(b), false, progress::add))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("was built from " + a.toAbsolutePath())
                .hasMessageContaining("nothing was removed")
                .hasMessageContaining("'lab down " + a.toAbsolutePath() + "'")
                .hasMessageContaining("--force");
        assertThat(lab.layout().namespaces()).allMatch(NetworkNamespaces::exists);

        assertThatThrownBy(() -> new LabProbe(runner, lab.stateFile(), SimulatorFlows::new)
                .run(b, TopologyLoader.load(b), Optional.empty(), progress::add))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("was built from " + a.toAbsolutePath());

        assertThat(UpLab.of(a, set, lab.stateFile(), "fail").state().file()).as("the file that built it acts on it")
                .isEqualTo(a.toAbsolutePath().toString());
        for (String command : List.of("fail", "heal", "failover")) {
            assertThatThrownBy(() -> UpLab.of(b, TopologyLoader.load(b), lab.stateFile(), command))
                    .as(command)
                    .isInstanceOf(LabRefusal.class)
                    .hasMessageContaining("was built from " + a.toAbsolutePath())
                    .hasMessageContaining("nothing was done")
                    .hasMessageContaining("'lab " + command + " " + a.toAbsolutePath())
                    .hasMessageContaining("'lab down " + a.toAbsolutePath() + "', then 'lab up " + b + "'");
        }

        Files.writeString(a, text + "\n# edited after lab up\n");
        for (String command : List.of("fail", "heal", "failover")) {
            assertThatThrownBy(() -> UpLab.of(a, TopologyLoader.load(a), lab.stateFile(), command))
                    .as(command)
                    .isInstanceOf(LabRefusal.class)
                    .hasMessageContaining("has changed since 'lab up'")
                    .hasMessageContaining("'lab down " + a + "', then 'lab up " + a + "'");
        }
        assertThatThrownBy(() -> new LabProbe(runner, lab.stateFile(), SimulatorFlows::new)
                .run(a, TopologyLoader.load(a), Optional.empty(), progress::add))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("has changed since 'lab up'")
                .hasMessageContaining("'lab down " + a + "', then 'lab up " + a + "'");
        assertThat(lab.layout().namespaces()).allMatch(NetworkNamespaces::exists);

        List<String> removed = new LabDown(runner, lab.stateFile()).run(b, TopologyLoader.load(b), true, progress::add);

        assertThat(removed).containsExactlyInAnyOrderElementsOf(lab.layout().namespaces());
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
        assertThat(progress).anyMatch(line -> line.startsWith("down: --force: the lab of topology '" + name + "' that is up was built from"));
    }
}
