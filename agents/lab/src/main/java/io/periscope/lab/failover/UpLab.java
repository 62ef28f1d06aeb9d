package io.periscope.lab.failover;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStop;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * A lab that {@code up} built from a file and that is still there, as the commands that act on a
 * running lab ({@code fail}, {@code heal}, {@code failover}) need it: planned as {@code up} planned it,
 * with its state and its supervisor's files.
 */
public record UpLab(Path file, ClusterSet set, ClusterSetPlan plan, LabLayout layout, LabState state, LabStateFile stateFile) {

    /** @throws LabRefusal when not root or when no lab of the file is up */
    public static UpLab of(Path file, ClusterSet topology, LabStateFile stateFile, String command) {
        if (!NetworkNamespaces.runningAsRoot()) {
            throw new LabRefusal("lab " + command + " needs root to enter the lab's network namespaces; run it as root (for example with sudo)");
        }
        ClusterSet set = LabCables.of(topology).set();
        ClusterSetPlan plan = Planner.plan(set);
        LabLayout layout = LabLayout.of(plan);
        LabState state = stateFile.read(layout.names().hash())
                .filter(s -> s.state().equals(LabState.CONVERGED))
                .orElseThrow(() -> new LabRefusal("no lab of topology '" + set.name() + "' is up; run 'lab up " + file + "' first"));
        return new UpLab(file, set, plan, layout, state, stateFile);
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
