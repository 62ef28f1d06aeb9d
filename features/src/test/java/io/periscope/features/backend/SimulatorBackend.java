package io.periscope.features.backend;

import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plans the cluster set with the planner and traces with the simulator. Scenarios of a feature share
 * their topology, so the compiled simulators of the last few cluster sets are kept: planning and
 * compiling once per topology keeps the whole suite within seconds.
 */
public final class SimulatorBackend implements Backend {

    private static final int KEPT = 16;

    private final Map<ClusterSet, SimulatedDeployment> recent = new LinkedHashMap<>(KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ClusterSet, SimulatedDeployment> eldest) {
            return size() > KEPT;
        }
    };

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public synchronized Deployment deploy(ClusterSet set) {
        return recent.computeIfAbsent(set, s -> new SimulatedDeployment(new Simulator(Planner.plan(s))));
    }
}
