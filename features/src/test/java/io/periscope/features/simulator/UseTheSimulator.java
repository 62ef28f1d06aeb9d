package io.periscope.features.simulator;

import io.cucumber.java.Before;
import io.periscope.features.backend.SimulatorBackend;
import io.periscope.features.steps.ClusterSetUnderTest;

/** Glue of the simulator suite: every scenario runs on the planner and the simulator. */
public final class UseTheSimulator {

    /** One for the whole run, so scenarios sharing a topology share its compiled simulator. */
    private static final SimulatorBackend SIMULATOR = new SimulatorBackend();

    private final ClusterSetUnderTest world;

    public UseTheSimulator(ClusterSetUnderTest world) {
        this.world = world;
    }

    @Before(order = 0)
    public void selectTheSimulator() {
        world.use(SIMULATOR);
    }
}
