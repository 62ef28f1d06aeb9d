package io.periscope.lab.bench;

import io.periscope.lab.failover.FailoverPrediction;
import io.periscope.lab.probe.FlowSimulation;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;

import java.util.List;
import java.util.Map;

/**
 * What {@code lab bench} asks of the simulator, in the lab's terms: the flows resolved and traced
 * as the probe has them, and the routes each stream may take ({@link BenchPrediction}). The lab owns
 * this port and does not depend on the simulator; the command line passes the implementation that
 * traces with it.
 */
public interface BenchSimulation {

    /** The flows of {@code plan}, resolved and traced. */
    FlowSimulation flows(ClusterSetPlan plan);

    /** Each stream's routes under {@code seeds}, the seeds {@code lab up} gave the nodes (see {@link FailoverPrediction#labSeeds}). */
    List<BenchPrediction.PredictedStream> streams(ClusterSetPlan plan, Map<HostId, Integer> seeds, List<FailoverPrediction.StreamFlow> streams);
}
