package io.periscope.lab.state;

import io.periscope.lab.LabRefusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The state file goes through one temporary name, so a JVM that halted between writing and renaming
 * leaves a file the next write replaces and {@code down} removes; a lab {@code up} left half built and a
 * lab of another topology whose name hashes alike are each refused for what they are.
 */
class AStateFileIsWrittenWholeAndItsLeftoversGoWithIt {

    @TempDir
    Path directory;

    @Test
    void aTemporaryFileLeftByAHaltedWriteIsReplacedThenDeleted() throws IOException {
        LabStateFile file = new LabStateFile(directory);
        // as a JVM halted after creating the temporary file and before writing it; and one of an earlier version's names
        Files.createFile(file.temporaryFor("aece28"));
        Files.createFile(directory.resolve("lab-aece2812345678.tmp"));
        LabState state = new LabState("t", "/x/t.yaml", "aece28", List.of("psc-aece28-a"), LabState.BUILDING);

        file.write(state);
        assertThat(file.read("aece28")).contains(state);
        assertThat(file.temporaryFor("aece28")).doesNotExist();

        Files.createFile(file.temporaryFor("aece28"));
        file.delete("aece28");
        assertThat(directory.toFile().list()).isEmpty();
    }

    @Test
    void aHalfBuiltLabIsNeitherUpNorAbsent() {
        LabStateFile file = new LabStateFile(directory);
        file.write(new LabState("t", "/x/t.yaml", "aece28", List.of("psc-aece28-a", "psc-aece28-b"), LabState.BUILDING));

        assertThatThrownBy(() -> file.requireUp("aece28", "t", Path.of("/x/t.yaml"))).isInstanceOf(LabRefusal.class)
                .hasMessageContaining("did not finish").hasMessageContaining("0 of its 2 namespaces exist")
                .hasMessageContaining("'lab down /x/t.yaml'").hasMessageNotContaining("no lab").hasMessageNotContaining("already up");
    }

    @Test
    void aCollisionNamesTheTopologyThatIsUpAndTheOneAskedFor() {
        LabStateFile file = new LabStateFile(directory);
        file.write(new LabState("first", "/x/first.yaml", "aece28", List.of("psc-aece28-a"), LabState.CONVERGED));

        assertThatThrownBy(() -> file.requireUp("aece28", "second", Path.of("/y/second.yaml"))).isInstanceOf(LabRefusal.class)
                .hasMessageContaining("of another topology, 'first' (built from /x/first.yaml)")
                .hasMessageContaining("hashes like 'second' of /y/second.yaml")
                .hasMessageContaining("'lab down /x/first.yaml'");
        assertThat(file.requireUp("aece28", "first", Path.of("/x/first.yaml")).topology()).isEqualTo("first");
    }
}
