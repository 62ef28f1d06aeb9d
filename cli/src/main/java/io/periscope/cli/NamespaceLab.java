package io.periscope.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.lab.LabRefusal;
import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.probe.LabProbe;
import io.periscope.lab.probe.ProbeReportJson;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.topology.ClusterSet;
import io.periscope.visualizer.lab.Lab;
import io.periscope.visualizer.lab.LabStatus;
import io.periscope.visualizer.lab.LabStatus.Condition;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The namespace lab for {@code serve}'s lab view: its state file says whether the file's lab is up
 * (and built from this file as it is now, by path and SHA-256, as {@code lab probe} requires), and
 * {@code lab probe}'s own code sends the packets. Here because only the command line sees both the
 * visualizer and the lab.
 */
final class NamespaceLab implements Lab {

    private final LabStateFile stateFile;

    NamespaceLab(LabStateFile stateFile) {
        this.stateFile = stateFile;
    }

    @Override
    public LabStatus status(Path file, ClusterSet set) {
        String up = "./periscope lab up " + file;
        if (!NetworkNamespaces.runningAsRoot()) {
            return new LabStatus(Condition.NOT_ROOT, "the lab's state and its network namespaces are root's: serve shows and probes the lab "
                    + "only when it runs as root", Optional.of("sudo ./periscope serve " + file));
        }
        Optional<LabState> state = stateFile.read(LabNames.of(set.name()).hash());
        if (state.isEmpty()) {
            return new LabStatus(Condition.DOWN, "no lab of topology '" + set.name() + "' is up", Optional.of(up));
        }
        if (!state.get().state().equals(LabState.CONVERGED)) {
            return new LabStatus(Condition.BUILDING, "the lab of topology '" + set.name() + "' is still being built by 'lab up' "
                    + "(or that 'lab up' was stopped before it converged)", Optional.of("./periscope lab down " + file + " && " + up));
        }
        TopologySource source = TopologySource.of(file);
        Optional<String> otherFile = source.otherFile(state.get());
        if (otherFile.isPresent()) {
            return new LabStatus(Condition.OTHER_FILE, otherFile.get(), Optional.of("./periscope lab down " + state.get().file() + " && " + up));
        }
        Optional<String> changed = source.changedSince(state.get());
        if (changed.isPresent()) {
            return new LabStatus(Condition.CHANGED, changed.get() + "; the lab no longer matches it",
                    Optional.of("./periscope lab down " + file + " && " + up));
        }
        return new LabStatus(Condition.UP, "the lab of topology '" + set.name() + "' built from " + state.get().file() + " is up ("
                + state.get().namespaces().size() + " namespaces" + (state.get().failures().isEmpty() ? "" : ", failed by 'lab fail': "
                + String.join(", ", state.get().failures().stream().map(f -> f.node()).toList())) + ")", Optional.empty());
    }

    @Override
    public ObjectNode probe(Path file, ClusterSet set, Optional<String> flow, Consumer<String> progress) {
        try {
            return ProbeReportJson.tree(new LabProbe(ProcessCommandRunner.here(), stateFile, SimulatorFlows::new).run(file, set, flow, progress));
        } catch (LabRefusal refusal) {
            // The status said up a moment ago: what changed is what the status says now, or else the probe's own words.
            LabStatus now = status(file, set);
            throw new Refused(now.up() ? new LabStatus(Condition.UP, refusal.getMessage(), Optional.empty()) : now);
        }
    }
}
