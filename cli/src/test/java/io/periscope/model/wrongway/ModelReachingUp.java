package io.periscope.model.wrongway;

import io.periscope.simulator.Simulator;

/**
 * A test fixture, never run: a class in the model's packages that uses the simulator, as no model
 * class may. {@code ModulesDependInOneDirection} shows its rule finds it.
 */
public final class ModelReachingUp {

    private ModelReachingUp() {
    }

    static Class<?> wrongWay() {
        return Simulator.class;
    }
}
