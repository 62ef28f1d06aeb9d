package io.periscope.lab.failover;

import java.util.List;
import java.util.Set;

/**
 * What {@code lab failover} measured.
 *
 * @param topology    the topology's name
 * @param failed      the node failed ({@code cluster/node})
 * @param mode        how it was failed
 * @param rate        datagrams per second per stream
 * @param healedAfterMillis when it was healed after the failure (absent: it stayed failed until the end)
 * @param streams     every UDP stream
 * @param tcp         every TCP connection
 * @param surviving   the streams whose gateway before the failure was not the failed node
 * @param moved       the streams whose gateway was the failed node
 * @param prediction  the simulator's {@code --fail} prediction, compared stream by stream
 * @param sendErrors  datagrams the kernel refused to send (no route), lost like the others
 * @param achievedRate datagrams per second per stream actually sent (below {@code rate} when the machine could not keep up)
 * @param failedGateway whether the failed node is a gateway; for a worker, {@code moved} holds the streams whose paths cross it
 *                    (a pod of theirs runs there) and {@code surviving} the others
 */
public record FailoverReport(String topology, String failed, String mode, int rate, Long healedAfterMillis,
                             List<StreamResult> streams, List<TcpResult> tcp, Summary surviving, Summary moved,
                             Prediction prediction, int sendErrors, double achievedRate, boolean failedGateway) {

    /** A report of a gateway's failure. */
    public FailoverReport(String topology, String failed, String mode, int rate, Long healedAfterMillis,
                          List<StreamResult> streams, List<TcpResult> tcp, Summary surviving, Summary moved,
                          Prediction prediction, int sendErrors, double achievedRate) {
        this(topology, failed, mode, rate, healedAfterMillis, streams, tcp, surviving, moved, prediction, sendErrors, achievedRate, true);
    }

    /**
     * One UDP stream.
     *
     * @param lostOnFailure     datagrams lost between the failure and the heal (or the end)
     * @param failureWindowMillis the longest run of datagrams lost then, in milliseconds of sending
     * @param lostOnHeal        datagrams lost after the heal
     * @param healWindowMillis  the longest run lost after the heal
     * @param before            the gateways it crossed before the failure
     * @param during            the gateways it crossed while the node was failed (from once the streams had settled, {@link LabFailover#settled})
     * @param after             the gateways it crossed once healed (from when the streams settled where predicted after the hold-down, 8 s after it at the latest, for 2 s)
     */
    public record StreamResult(int id, String flow, int sourcePort, int sent, int received, int lostOnFailure, double failureWindowMillis,
                               int lostOnHeal, double healWindowMillis, Set<String> before, Set<String> during, Set<String> after) {

        public boolean crossedFailed(String failed) {
            return before.contains(failed);
        }

        public boolean moved() {
            return !before.equals(during);
        }
    }

    /**
     * A TCP connection's fate and the gateways that carried its packets: from when it connected to the
     * failure ({@code before}), and from the failure to the end of the measurement ({@code during}; the
     * heal and hold-down included where the node was healed), leaving out the failed node while a
     * blackhole swallowed what reached it. Every counted packet is in one of the two, so a connection
     * that left its gateway at any moment, even for one retransmission, shows it.
     */
    public record TcpResult(TcpConnections.Outcome outcome, Set<String> before, Set<String> during) {
    }

    /**
     * A group of streams: on failure, packets lost and percentiles of the loss window (ms) and how
     * many changed gateway; on heal, packets lost, the longest window and how many moved back to
     * the healed node.
     */
    public record Summary(int streams, long lost, double p50, double p90, double p99, double max, int streamsThatMoved,
                          long lostOnHeal, double maxHealWindow, int streamsThatMovedBack) {
    }

    /**
     * The simulator's prediction for each stream's own 5-tuple ({@link FailoverPrediction}), and where the measurement differs.
     *
     * @param failedGatewaysBefore the gateways the simulator routes the streams through before the failure
     * @param gatewaysAfter        the gateways it routes them through with the node failed
     * @param basis                how the nodes' choices were predicted (the kernel's hash under known seeds, or not)
     * @param streams              each stream's predicted gateways before, during and after
     * @param differences          every stream and phase where the measured gateways differ from the predicted ones
     */
    public record Prediction(Set<String> failedGatewaysBefore, Set<String> gatewaysAfter, String basis,
                             List<FailoverPrediction.PredictedStream> streams, List<String> differences) {

        /** The streams predicted to change gateway on the failure. */
        public Set<Integer> predictedToMove() {
            Set<Integer> ids = new java.util.TreeSet<>();
            streams.stream().filter(FailoverPrediction.PredictedStream::moves).forEach(p -> ids.add(p.id()));
            return ids;
        }
    }
}
