package io.periscope.lab.down;

import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.LabRefusal;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code lab down FILE} after FILE was moved or deleted: the lab is found by its state, which records the file
 * that built it; a path no lab was built from is refused with the labs that are up. (The states here list
 * namespaces that do not exist, so nothing on the machine is touched.)
 */
class LabDownFindsTheLabOfAFileThatIsGone {

    @TempDir
    Path directory;

    @Test
    void theLabBuiltFromAGoneFileIsRemovedByItsState() {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "lab down needs root");
        LabStateFile states = new LabStateFile(directory.resolve("run"));
        Path gone = directory.resolve("gone.yaml");
        states.write(new LabState("gone", gone.toString(), "a1b2c3", List.of("psc-a1b2c3-never-created"), LabState.CONVERGED));
        states.write(new LabState("other", directory.resolve("other.yaml").toString(), "d4e5f6", List.of("psc-d4e5f6-never-created"),
                LabState.CONVERGED));
        List<String> progress = new ArrayList<>();

        new LabDown(ProcessCommandRunner.here(), states).runWithoutFile(gone, progress::add);

        assertThat(states.read("a1b2c3")).isEmpty();
        assertThat(states.read("d4e5f6")).isPresent();
        assertThat(progress).anyMatch(l -> l.contains(gone + " is gone; removing the lab of topology 'gone'"));
    }

    @Test
    void aPathNoLabWasBuiltFromIsRefusedWithTheLabsThatAreUp() {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "lab down needs root");
        LabStateFile states = new LabStateFile(directory.resolve("run"));
        states.write(new LabState("other", "/x/other.yaml", "d4e5f6", List.of("psc-d4e5f6-never-created"), LabState.CONVERGED));

        assertThatThrownBy(() -> new LabDown(ProcessCommandRunner.here(), states).runWithoutFile(directory.resolve("nothing.yaml"), l -> { }))
                .isInstanceOf(LabRefusal.class).hasMessageContaining("no such file, and no lab's state says it was built from it")
                .hasMessageContaining("/x/other.yaml (topology 'other')");
        assertThat(states.read("d4e5f6")).isPresent();
    }
}
