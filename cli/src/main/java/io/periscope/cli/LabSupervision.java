package io.periscope.cli;

import io.periscope.lab.down.LabTeardown;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.supervisor.SupervisorLauncher;
import io.periscope.model.topology.ClusterSet;

import java.util.function.Consumer;

/** The supervisor {@code lab up} leaves behind; a lab whose supervisor cannot start is removed again: never half up. */
final class LabSupervision {

    private LabSupervision() {
    }

    static void start(LabStateFile stateFile, ClusterSet set, String hash, Consumer<String> progress) {
        try {
            new SupervisorLauncher(stateFile).start(set, hash, progress);
        } catch (RuntimeException e) {
            progress.accept("failed: the supervisor did not start; removing the lab");
            stateFile.read(hash).ifPresent(state -> new LabTeardown(ProcessCommandRunner.here(), stateFile).remove(state));
            throw e;
        }
    }
}
