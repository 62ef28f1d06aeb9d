package io.periscope.lab.probe;

import java.util.List;

/** What {@code lab probe} found for each flow probed. */
public record ProbeReport(String topology, List<FlowProbeResult> flows) {

    public ProbeReport {
        flows = List.copyOf(flows);
    }

    /** Every flow probed and every one matched the simulation: exit 0; else exit 1. */
    public boolean matchesSimulation() {
        return !flows.isEmpty() && flows.stream().allMatch(FlowProbeResult::matchesSimulation);
    }
}
