package io.periscope.lab.state;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LabStateFileKeepsWhatUpCreated {

    @TempDir
    Path directory;

    @Test
    void aWrittenStateReadsBackAndIsGoneOnceDeleted() {
        LabStateFile file = new LabStateFile(directory);
        LabState state = new LabState("mag-globalnet", "/x/mag-globalnet.yaml", "aece28", List.of("psc-aece28-a", "psc-aece28-b"),
                LabState.BUILDING);

        file.write(state);
        file.write(state.withState(LabState.CONVERGED));

        assertThat(file.pathFor("aece28")).isEqualTo(directory.resolve("lab-aece28.json")).exists();
        assertThat(file.read("aece28")).contains(state.withState(LabState.CONVERGED));
        assertThat(directory.toFile().list()).containsExactly("lab-aece28.json");

        file.delete("aece28");
        assertThat(file.read("aece28")).isEmpty();
        file.delete("aece28");
    }
}
