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
        Optional<String> otherFile = source.otherFile(state.get());
        if (otherFile.isPresent()) {
            if (!force) {
                throw new LabRefusal(otherFile.get() + "; nothing was removed.\nTo remove that lab, run 'lab down " + state.get().file()
                        + "' (or 'lab down --force " + file + "', which removes the namespaces its state lists)");
            }
            progress.accept("down: --force: " + otherFile.get() + "; removing what its state lists");
        }
        // The same file edited since: the state still lists exactly what up created, so that is removed.
        source.changedSince(state.get()).ifPresent(changed -> progress.accept("down: note: " + changed
                + "; removing what 'lab up' created then, as its state lists it"));
        long start = System.nanoTime();
        List<String> removed = new LabTeardown(runner, stateFile).remove(state.get(), progress);
        progress.accept("down: " + removed.size() + " namespaces of " + topology + " removed ("
                + (System.nanoTime() - start) / 1_000_000 + " ms)");
        return removed;
    }
}
