package io.periscope.features.lab;

import io.periscope.features.backend.Deployment;
import io.periscope.features.backend.LabDriver;
import io.periscope.features.backend.LabExitGuard;
import io.periscope.lab.LabRefusal;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.apply.LabApply;
import io.periscope.lab.down.LabDown;
import io.periscope.lab.down.LabTeardown;
import io.periscope.lab.failover.LabFailure;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.supervisor.SupervisorLauncher;
import io.periscope.lab.up.LabUp;
import io.periscope.lab.up.LabUpResult;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The acceptance suite's {@link LabDriver}: {@code lab up} of the scenario's cluster set with its
 * supervisor (the agents kept running, every cluster's DNS server), a
 * {@link ProbedDeployment} whose traces are real probes, and {@code lab down}. One lab at a time:
 * a changed cluster set (an export deleted, a policy added, a node or pod removed) goes to the running
 * lab through {@code lab apply}, so that the agents must delete what the change dropped; a change the lab
 * cannot take in place (a node or pod added, other clusters) takes the previous lab down
 * and builds the new one, and {@link #takeNotes} says which happened. The state files live in a directory of this run, so the suite never meets a lab
 * someone started by hand; a JVM shutdown hook takes the lab down if the run ends without
 * {@link #down}, even in the middle of a build ({@link LabExitGuard}).
 */
public final class NamespaceLab implements LabDriver {

    private final ProcessCommandRunner runner = ProcessCommandRunner.here();
    private final List<String> progress = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private ClusterSet up;
    private Path stateDirectory;
    private LabStateFile stateFile;
    private final LabExitGuard guard = LabExitGuard.armed("lab", this::takeDown);

    @Override
    public Deployment change(ClusterSet set) {
        return guard.building(() -> changeInPlace(set));
    }

    private Deployment changeInPlace(ClusterSet set) {
        if (up != null && up.name().equals(set.name())) {
            Optional<Deployment> applied = applyInPlace(set);
            if (applied.isPresent()) {
                return applied.get();
            }
        } else {
            notes.add("built with lab up: no lab of '" + set.name() + "' was running to take the change");
        }
        return build(set);
    }

    @Override
    public Deployment up(ClusterSet set) {
        return guard.building(() -> build(set));
    }

    private Deployment build(ClusterSet set) {
        takeDown();
        progress.clear();
        try {
            stateDirectory = Files.createTempDirectory("periscope-acceptance-lab");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the lab's state directory", e);
        }
        stateFile = new LabStateFile(stateDirectory);
        LabUpResult result = new LabUp(runner, stateFile, new ReconcilingAgents()).run(file(set), set, progress::add);
        String hash = result.layout().names().hash();
        try {
            new SupervisorLauncher(stateFile).start(set, hash, progress::add);
        } catch (RuntimeException e) {
            // As 'lab up' does: never half up.
            stateFile.read(hash).ifPresent(state -> new LabTeardown(runner, stateFile).remove(state, progress::add));
            throw e;
        }
        up = set;
        return new ProbedDeployment(set, runner, stateFile, file(set));
    }

    /**
     * The running lab takes {@code set} as {@code lab apply} takes an edited file: the same code, so
     * that what the change drops must be deleted by the running agents (a rebuild would never show a
     * rule left behind). Empty when the lab refuses to take it in place (a node or pod added,
     * say): the caller rebuilds, and the notes say so, with the lab's reasons.
     */
    private Optional<Deployment> applyInPlace(ClusterSet set) {
        progress.clear();
        try {
            LabApply.Applied applied = new LabApply(stateFile).run(file(set), set, progress::add);
            notes.add("lab apply: the running lab took the change in place (" + String.join(", ", applied.change().changed())
                    + "; converged in " + applied.millis() + " ms)");
        } catch (LabRefusal refusal) {
            notes.add("rebuilt with lab down + lab up, so no deletion by the agents is shown: lab apply refused the change: "
                    + refusal.getMessage().lines().findFirst().orElse("") + " " + refusal.getMessage().lines().skip(1)
                    .map(String::strip).filter(l -> !l.startsWith("nothing was changed")).collect(Collectors.joining("; ")));
            return Optional.empty();
        }
        up = set;
        return Optional.of(new ProbedDeployment(set, runner, stateFile, file(set)));
    }

    /** What the lab did to realise the changes since the last call: applied in place, or rebuilt and why. */
    @Override
    public List<String> takeNotes() {
        return guard.locked(() -> {
            List<String> taken = List.copyOf(notes);
            notes.clear();
            return taken;
        });
    }

    /**
     * {@code lab up} of the file in a state directory of its own, which leaves a running lab alone. A
     * refusal must come before anything exists: the namespaces ({@code ip netns list}) are the same
     * after it as before, and no state was written.
     */
    @Override
    public Optional<TopologyException> refuse(String yaml) {
        return guard.building(() -> refusal(yaml));
    }

    private Optional<TopologyException> refusal(String yaml) {
        Path directory;
        Path file;
        try {
            directory = Files.createTempDirectory("periscope-acceptance-refusal");
            file = Files.writeString(directory.resolve("cluster-set.yaml"), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cluster set file", e);
        }
        Path states = directory.resolve("state");
        LabStateFile own = new LabStateFile(states);
        List<String> before = namespaces();
        try {
            LabUpResult taken = new LabUp(runner, own, new ReconcilingAgents()).run(file, progress::add);
            own.read(taken.layout().names().hash()).ifPresent(state -> new LabTeardown(runner, own).remove(state, progress::add));
            return Optional.empty();
        } catch (TopologyException refusal) {
            List<String> after = namespaces();
            if (!after.equals(before)) {
                throw new AssertionError("lab up refused the file but the namespaces changed: before " + before + ", after " + after);
            }
            if (Files.exists(states)) {
                throw new AssertionError("lab up refused the file but wrote state in " + states);
            }
            return Optional.of(refusal);
        } finally {
            try {
                Files.deleteIfExists(file);
                Files.deleteIfExists(states);
                Files.deleteIfExists(directory);
            } catch (IOException e) {
                progress.add("cannot remove " + directory + ": " + e.getMessage());
            }
        }
    }

    private List<String> namespaces() {
        var listed = runner.execute(io.periscope.dataplane.command.Command.of("ip", "netns", "list"));
        if (!listed.succeeded()) {
            throw new AssertionError("ip netns list failed: " + listed.stderr().strip());
        }
        return listed.stdout().lines().map(line -> line.split(" ")[0]).sorted().toList();
    }

    @Override
    public void healFailures() {
        guard.locked(this::heal);
    }

    private void heal() {
        if (up == null) {
            return;
        }
        stateFile.read(LabLayout.of(Planner.plan(LabCables.of(up).set())).names().hash()).ifPresent(state -> {
            if (!state.failures().isEmpty()) {
                UpLab lab = UpLab.of(file(up), up, stateFile, "acceptance");
                state.failures().forEach(failure -> new LabFailure(runner).heal(lab, failure.node(), progress::add));
            }
        });
    }

    @Override
    public void down() {
        guard.locked(this::takeDown);
    }

    /** Under the guard's lock: from {@link #down}, from a new build, or from the JVM's shutdown hook. */
    private void takeDown() {
        if (up != null) {
            ClusterSet going = up;
            up = null;
            new LabDown(runner, stateFile).run(file(going), going, false, progress::add);
        }
        if (stateDirectory != null) {
            // Left only when empty: a state file still there names namespaces down could not remove.
            try {
                Files.deleteIfExists(stateDirectory);
            } catch (IOException e) {
                progress.add("state directory " + stateDirectory + " kept: " + e.getMessage());
            }
            stateDirectory = null;
        }
    }

    /** The lab names a topology by its file in messages; a scenario's set has none, so its name stands in. */
    private static Path file(ClusterSet set) {
        return Path.of(set.name() + ".yaml");
    }
}
