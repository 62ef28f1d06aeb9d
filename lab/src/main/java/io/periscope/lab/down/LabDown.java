package io.periscope.lab.down;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code lab down FILE}: removes what {@code lab up} of that file created, as its state file lists
 * it, and nothing else. Running it when no lab is up does nothing and succeeds. It needs root,
 * like {@code up}: the state file and the namespaces are root's.
 */
public final class LabDown {

    private final CommandRunner runner;
    private final LabStateFile stateFile;

    public LabDown(CommandRunner runner, LabStateFile stateFile) {
        this.runner = runner;
        this.stateFile = stateFile;
    }

    /** @return the namespaces removed (empty when no lab of this topology was up) */
    public List<String> run(Path file, boolean force, Consumer<String> progress) throws TopologyException {
        return run(file, TopologyLoader.load(file), force, progress);
    }

    /**
     * The same, for a topology already loaded from {@code file}.
     *
     * @param force remove the lab of this topology's name even when another file built it (the
     *              namespaces are named after the topology's name only)
     * @throws LabRefusal when not root, or when the lab that is up was not built from {@code file}
     *                    and {@code force} was not given
     */
    public List<String> run(Path file, ClusterSet set, boolean force, Consumer<String> progress) {
        if (!NetworkNamespaces.runningAsRoot()) {
            throw new LabRefusal("lab down needs root to delete the lab's network namespaces; run it as root (for example with sudo)");
        }
        String topology = set.name();
        LabNames names = LabNames.of(topology);
        Optional<LabState> state = stateFile.read(names.hash());
        if (state.isEmpty()) {
            progress.accept("down: no lab of topology '" + topology + "' is up (no " + stateFile.pathFor(names.hash()) + ")");
            return List.of();
        }
        TopologySource source = TopologySource.of(file);
        Optional<String> otherFile = stateFile.collision(state.get(), topology, file).or(() -> source.otherFile(state.get()));
        if (otherFile.isPresent() && movedHere(state.get(), source)) {
            progress.accept("down: the lab was built from " + state.get().file() + ", which is gone; " + file + " has the same content");
        } else if (otherFile.isPresent()) {
            if (!force) {
                throw new LabRefusal(otherFile.get() + "; nothing was removed.\nTo remove that lab, run 'lab down " + state.get().file()
                        + "' (or 'lab down --force " + file + "', which removes the namespaces its state lists)");
            }
            progress.accept("down: --force: " + otherFile.get() + "; removing what its state lists");
        }
        return remove(state.get(), source, progress);
    }

    /**
     * {@code lab down FILE} of a file that no longer exists (moved, deleted): the lab whose state says it was
     * built from that path, found without reading the file.
     *
     * @throws LabRefusal when not root, or when no lab's state names the file (the message lists the labs that are up)
     */
    public List<String> runWithoutFile(Path file, Consumer<String> progress) {
        if (!NetworkNamespaces.runningAsRoot()) {
            throw new LabRefusal("lab down needs root to delete the lab's network namespaces; run it as root (for example with sudo)");
        }
        TopologySource source = TopologySource.of(file);
        List<LabState> built = stateFile.all().stream().filter(s -> source.otherFile(s).isEmpty()).toList();
        if (built.isEmpty()) {
            List<LabState> labs = stateFile.all();
            throw new LabRefusal(file + ": no such file, and no lab's state says it was built from it; "
                    + (labs.isEmpty() ? "no lab is up (" + stateFile.pathFor("*").getParent() + " lists none)"
                    : "the labs up were built from: " + labs.stream().map(s -> s.file() + " (topology '" + s.topology() + "')")
                    .collect(java.util.stream.Collectors.joining(", ")) + "; name one of those files"));
        }
        progress.accept("down: " + file + " is gone; removing the lab of topology '" + built.getFirst().topology() + "' that its state says was built from it");
        return remove(built.getFirst(), source, progress);
    }

    /** A file moved: the lab's own is gone, and this one has the bytes it was built from. */
    private static boolean movedHere(LabState state, TopologySource source) {
        return !java.nio.file.Files.exists(Path.of(state.file())) && !source.sha256().isEmpty()
                && source.sha256().equals(state.sourceSha256());
    }

    private List<String> remove(LabState state, TopologySource source, Consumer<String> progress) {
        String topology = state.topology();
        // The same file edited since: the state still lists exactly what up created, so that is removed.
        source.changedSince(state).ifPresent(changed -> progress.accept("down: note: " + changed
                + "; removing what 'lab up' created then, as its state lists it"));
        long start = System.nanoTime();
        List<String> removed = new LabTeardown(runner, stateFile).remove(state, progress);
        progress.accept("down: " + removed.size() + " namespaces of " + topology + " removed ("
                + (System.nanoTime() - start) / 1_000_000 + " ms)");
        return removed;
    }
}
