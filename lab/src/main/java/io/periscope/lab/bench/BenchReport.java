package io.periscope.lab.bench;

import java.util.List;
import java.util.Optional;

/**
 * What {@code lab bench} measured, next to what the simulator predicted.
 *
 * @param seconds         each test's requested length
 * @param measuredSeconds the tests' length as iperf3 measured it (the per-gateway rates are over this)
 * @param basis           what the prediction rests on (the lab's hash seeds, or the documented hash where the kernel has none)
 * @param differences     every stream whose measurement the simulator did not predict: a route it does not give, no
 *                        gateway at all, or no bytes (the simulator delivers every pair's packets)
 */
public record BenchReport(String topology, int seconds, double measuredSeconds, List<BenchPlan.Pair> pairs, List<BenchPlan.Skipped> skipped,
                          List<StreamResult> streams, List<GatewayResult> gateways, List<HashSpread.Spread> spread, Totals totals,
                          String basis, List<String> differences) {

    public BenchReport {
        pairs = List.copyOf(pairs);
        skipped = List.copyOf(skipped);
        streams = List.copyOf(streams);
        gateways = List.copyOf(gateways);
        spread = List.copyOf(spread);
        differences = List.copyOf(differences);
    }

    /**
     * One stream (TCP connection) of a pair's test.
     *
     * @param bytes         what the server received
     * @param bitsPerSecond what the server received per second: the stream's throughput
     * @param retransmits   segments its sender retransmitted
     * @param meanRttMicros the sender's smoothed round-trip time at the end, in microseconds
     * @param measured      the gateways whose connection tables hold it
     * @param problem       why it moved nothing, when it did not (iperf3's error)
     */
    public record StreamResult(int id, String flow, int pair, int sourcePort, long bytes, double bitsPerSecond, long retransmits, long meanRttMicros,
                               GatewayPassage measured, BenchPrediction.PredictedStream predicted, Optional<String> problem) {

        public boolean matchesPrediction() {
            return problem.isEmpty() && bytes > 0 && predicted.allows(measured);
        }
    }

    /**
     * A gateway: the flows it carried out of its cluster and into it, predicted and measured, and what
     * crossed its WAN device ({@code wan0}) while the tests ran.
     *
     * @param egressPredicted  flows predicted to leave by it (an expected count where a choice is a socket's random hash)
     * @param egressSpread     the standard deviation of that count (0 when every flow's gateway is determined)
     * @param wanSent          bytes its WAN device sent (tunnel headers and the other direction's acknowledgements included)
     */
    public record GatewayResult(String gateway, String cluster, boolean active, double egressPredicted, double egressSpread, int egressMeasured,
                                double ingressPredicted, double ingressSpread, int ingressMeasured, long wanSent, long wanReceived,
                                double wanSentBitsPerSecond, double wanReceivedBitsPerSecond) {
    }

    /**
     * @param bitsPerSecond aggregate throughput: the streams' receiver rates added up
     * @param fairness      Jain's index over the streams' rates
     * @param wanSent       the bytes every gateway's WAN device sent
     * @param wanToPayload  {@code wanSent} over the streams' received bytes: headers, acknowledgements and retransmissions make it a little above 1
     */
    public record Totals(int flows, int flowsThatMovedBytes, long bytes, double bitsPerSecond, double fairness, long retransmits, long wanSent,
                         double wanToPayload) {
    }

    public boolean matchesPrediction() {
        return differences.isEmpty();
    }
}
