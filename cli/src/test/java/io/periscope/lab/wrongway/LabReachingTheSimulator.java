package io.periscope.lab.wrongway;

import io.periscope.simulator.Simulator;

/**
 * A test fixture, never run: a class in the lab's packages that uses the simulator, as no lab class
 * may (the lab asks for predictions through its own ports, which lab-simulator implements).
 * {@code ModulesDependInOneDirection} shows its rule finds it.
 */
public final class LabReachingTheSimulator {

    private LabReachingTheSimulator() {
    }

    static Class<?> wrongWay() {
        return Simulator.class;
    }
}
