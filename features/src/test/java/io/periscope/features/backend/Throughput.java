package io.periscope.features.backend;

import java.util.Map;

/**
 * TCP connections of one flow run side by side: the rate they reached together and how many left by
 * each of the source cluster's gateways. In the lab iperf3 measures it (`lab bench`); the simulator
 * gives the rate the shaped links allow and the gateways its kernel hash picks for evenly spread
 * source ports.
 *
 * @param megabitsPerSecond  together, in Mbit/s (the simulator: the predicted aggregate, 0 when nothing on the way is shaped)
 * @param connectionsByLocalGateway {@code cluster/node} of each gateway of the source's cluster to the connections that left by it
 * @param measured           whether real packets gave these figures
 */
public record Throughput(double megabitsPerSecond, Map<String, Integer> connectionsByLocalGateway, boolean measured) {

    public Throughput {
        connectionsByLocalGateway = Map.copyOf(connectionsByLocalGateway);
    }

    /** The gateways that carried at least one connection. */
    public long gatewaysUsed() {
        return connectionsByLocalGateway.values().stream().filter(n -> n > 0).count();
    }
}
