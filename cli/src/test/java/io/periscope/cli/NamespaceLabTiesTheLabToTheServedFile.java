package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.visualizer.lab.Lab;
import io.periscope.visualizer.lab.LabStatus;
import io.periscope.visualizer.lab.LabStatus.Condition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What {@code serve}'s lab view is told about the lab, from the lab's state file (in a directory of
 * the test's own, so no namespace is made): down with the command that brings it up; still
 * building; built from another file of the same topology name; built from this file before an edit;
 * up. A probe of a lab that is not up is refused with that status. Not root: said so, whatever the
 * state file holds.
 */
class NamespaceLabTiesTheLabToTheServedFile {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-globalnet.yaml");

    @TempDir
    Path directory;

    @Test
    void theStatusSaysWhetherTheLabWasBuiltFromThisFileAsItIsNow() throws Exception {
        Path file = Files.copy(EXAMPLE, directory.resolve("mag.yaml"));
        ClusterSet set = TopologyLoader.load(file);
        LabStateFile stateFile = new LabStateFile(Files.createDirectories(directory.resolve("state")));
        NamespaceLab lab = new NamespaceLab(stateFile);
        if (!NetworkNamespaces.runningAsRoot()) {
            LabStatus status = lab.status(file, set);
            assertThat(status.condition()).isEqualTo(Condition.NOT_ROOT);
            assertThat(status.command()).contains("sudo ./periscope serve " + file);
            return;
        }
        String hash = LabNames.of(set.name()).hash();

        LabStatus down = lab.status(file, set);
        assertThat(down.condition()).isEqualTo(Condition.DOWN);
        assertThat(down.message()).isEqualTo("no lab of topology 'mag-globalnet' is up");
        assertThat(down.command()).contains("./periscope lab up " + file);
        assertThatThrownBy(() -> lab.probe(file, set, Optional.empty(), line -> { }))
                .isInstanceOfSatisfying(Lab.Refused.class, r -> assertThat(r.status().condition()).isEqualTo(Condition.DOWN));

        TopologySource source = TopologySource.of(file);
        stateFile.write(new LabState(set.name(), source, hash, List.of(), LabState.BUILDING));
        assertThat(lab.status(file, set).condition()).isEqualTo(Condition.BUILDING);

        Path other = Files.copy(EXAMPLE, directory.resolve("other.yaml"));
        stateFile.write(new LabState(set.name(), TopologySource.of(other), hash, List.of(), LabState.CONVERGED));
        LabStatus otherFile = lab.status(file, set);
        assertThat(otherFile.condition()).isEqualTo(Condition.OTHER_FILE);
        assertThat(otherFile.message()).contains("was built from " + other.toAbsolutePath());
        assertThat(otherFile.command()).contains("./periscope lab down " + other.toAbsolutePath() + " && ./periscope lab up " + file);

        stateFile.write(new LabState(set.name(), source, hash, List.of("psc-x"), LabState.CONVERGED));
        LabStatus up = lab.status(file, set);
        assertThat(up.condition()).as(up.message()).isEqualTo(Condition.UP);
        assertThat(up.command()).isEmpty();

        Files.writeString(file, Files.readString(file) + "\n# edited after lab up\n");
        LabStatus changed = lab.status(file, set);
        assertThat(changed.condition()).isEqualTo(Condition.CHANGED);
        assertThat(changed.message()).contains("has changed since 'lab up'").endsWith("the lab no longer matches it");
        assertThat(changed.command()).contains("./periscope lab down " + file + " && ./periscope lab up " + file);
    }
}
