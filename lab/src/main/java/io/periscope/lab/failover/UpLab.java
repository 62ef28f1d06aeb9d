package io.periscope.lab.failover;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.lease.LabLeases;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStop;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * A lab that {@code up} built from a file and that is still there, as the commands that act on a
 * running lab ({@code fail}, {@code heal}, {@code failover}) need it: laid out as {@code up} built it,
 * planned as its agents program it now (each single-active cluster's lease holder as its active
 * gateway, see {@link LabLeases}), with its state and its supervisor's files.
 */
public record UpLab(Path file, ClusterSet set, ClusterSetPlan plan, LabLayout layout, LabState state, LabStateFile stateFile) {

    /**
     * @throws LabRefusal when not root, when no lab of the file is up, or when the lab of its topology's
     *                    name was built from another file, or from this one before an edit
     */
    public static UpLab of(Path file, ClusterSet topology, LabStateFile stateFile, String command) {
        if (!NetworkNamespaces.runningAsRoot()) {
            throw new LabRefusal("lab " + command + " needs root to enter the lab's network namespaces; run it as root (for example with sudo)");
        }
        ClusterSet set = LabCables.of(topology).set();
        ClusterSetPlan plan = Planner.plan(set);
        LabLayout layout = LabLayout.of(plan);
        LabState state = stateFile.requireUp(layout.names().hash(), set.name(), file);
        // The lab is found by the topology's name alone: without these checks, another file of the same
        // name (or this one edited) would fail, heal and measure nodes of a lab it did not build.
        TopologySource source = TopologySource.of(file);
        source.otherFile(state).ifPresent(other -> {
            throw new LabRefusal(other + "; nothing was done.\nName that file instead ('lab " + command + " " + state.file()
                    + " ...'), or replace its lab: 'lab down " + state.file() + "', then 'lab up " + file + "'");
        });
        source.changedSince(state).ifPresent(changed -> {
            throw new LabRefusal(changed + "; the lab no longer matches it, so nothing was done.\nRebuild it: 'lab down " + file
                    + "', then 'lab up " + file + "'");
        });
        java.util.Map<String, String> holders = LabLeases.holders(stateFile.directoryFor(state.hash()), set);
        if (holders.isEmpty()) {
            return new UpLab(file, set, plan, layout, state, stateFile);
        }
        ClusterSet now = LabLeases.withHolders(set, holders);
        return new UpLab(file, now, Planner.plan(now), layout, state, stateFile);
    }

    /** The node named {@code cluster/node}. @throws LabRefusal naming the lab's nodes when there is none */
    public HostNamespace node(String reference) {
        return layout.nodes().stream().filter(n -> n.host().toString().equals(reference)).findFirst()
                .orElseThrow(() -> new LabRefusal(file + ": no node '" + reference + "' in topology '" + set.name() + "'; its nodes are "
                        + layout.nodes().stream().map(n -> n.host().toString()).collect(Collectors.joining(", "))));
    }

    public SupervisorFiles supervisorFiles() {
        return new SupervisorFiles(stateFile.directoryFor(state.hash()));
    }

    /** @throws LabRefusal when the lab's supervisor is not running (a lab built before there was one, or one that died) */
    public void requireSupervisor() {
        if (state.supervisor() == null || !SupervisorStop.running(state.supervisor())) {
            throw new LabRefusal("the lab of '" + set.name() + "' has no running supervisor (its agents are not running)"
                    + (state.supervisor() == null ? "" : "; see its log " + supervisorFiles().log())
                    + "; run 'lab down " + file + "' and 'lab up " + file + "' again");
        }
    }

    /** The state as it is now on disk (commands update it as they go). */
    public LabState current() {
        return stateFile.read(state.hash()).orElse(state);
    }
}
