package io.periscope.lab.failover;

import io.periscope.lab.probe.FlowSimulation;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;

import java.util.List;
import java.util.Map;

/**
 * What {@code lab failover} asks of the simulator, in the lab's terms: the flows resolved and traced
 * as the probe has them, and where each stream goes before, during and after a failure. The lab
 * owns this port and does not depend on the simulator; the command line passes the implementation
 * that traces with it.
 */
public interface FailoverSimulation {

    /** The flows of {@code plan}, resolved and traced. */
    FlowSimulation flows(ClusterSetPlan plan);

    /**
     * For each stream, the gateways its packets reach that the lab's counters can see (they match a
     * stream by its source address and port as it arrives, one way), with every node up, while
     * {@code failed} is down ({@link FailoverPrediction#plans}) and, when {@code healed}, after the heal.
     *
     * @param seeds    each node's {@code fib_multipath_hash_seed}; a node without one is predicted with Periscope's documented hash
     * @param failed   {@code cluster/node}
     * @param withdraw whether the failure makes the agents withdraw the node (every mode but {@code agent-stop})
     * @param healed   whether the node is healed, so that {@code after} is predicted
     */
    List<FailoverPrediction.PredictedStream> streams(ClusterSetPlan plan, Map<HostId, Integer> seeds, List<FailoverPrediction.StreamFlow> streams,
                                                     String failed, boolean withdraw, boolean healed);

    /** Each connection's fate when {@code failed} fails and the agents withdraw it (a connection is one of {@code connections}' flows, source port included). */
    List<FailoverPrediction.PredictedConnection> connections(ClusterSetPlan plan, Map<HostId, Integer> seeds,
                                                             List<FailoverPrediction.StreamFlow> connections, String failed);
}
