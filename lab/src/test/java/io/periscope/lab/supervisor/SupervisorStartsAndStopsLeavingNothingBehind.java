package io.periscope.lab.supervisor;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.SupervisorProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The supervisor a lab keeps: recorded in the state as soon as it runs, with every node's agent
 * running; {@code down} stops it and leaves no process, no directory and no namespace behind.
 */
class SupervisorStartsAndStopsLeavingNothingBehind {

    @TempDir
    Path state;

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
    void downStopsTheSupervisorAndRemovesItsDirectory() {
        lab = RunningLab.upWithoutSupervisor(RunningLab.forTest(Examples.load(Examples.MAG_GLOBALNET), "supervisor"), state);
        String hash = lab.layout().names().hash();
        List<String> progress = new ArrayList<>();

        SupervisorProcess supervisor = new SupervisorLauncher(lab.stateFile()).start(lab.set(), hash, progress::add);

        LabState recorded = lab.stateFile().read(hash).orElseThrow();
        assertThat(recorded.supervisor()).isEqualTo(supervisor);
        assertThat(SupervisorStop.running(supervisor)).isTrue();
        SupervisorStatus status = new SupervisorFiles(lab.stateFile().directoryFor(hash)).readStatus().orElseThrow();
        assertThat(status.pid()).isEqualTo(supervisor.pid());
        assertThat(status.nodes().keySet()).containsExactlyInAnyOrderElementsOf(
                lab.layout().nodes().stream().map(n -> n.host().toString()).toList());
        assertThat(status.nodes().values()).allMatch(SupervisorStatus.NodeAgentStatus::running);

        lab.down();

        assertThat(ProcessHandle.of(supervisor.pid()).filter(ProcessHandle::isAlive)).isEmpty();
        assertThat(Files.exists(lab.stateFile().directoryFor(hash))).isFalse();
        assertThat(lab.stateFile().read(hash)).isEmpty();
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
    }
}
