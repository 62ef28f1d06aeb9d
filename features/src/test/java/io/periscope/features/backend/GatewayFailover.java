package io.periscope.features.backend;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What happened to traffic while a gateway failed and came back: per UDP stream the gateways it
 * crossed before, during and after and whether it lost packets, per TCP connection its gateways
 * before and during and whether it survived. The lab measures it with real packets; the simulator
 * predicts it for each stream's own 5-tuple.
 */
public record GatewayFailover(String failed, List<Stream> streams, List<Connection> connections) {

    /**
     * What a lab failover measured, as the scenario's steps read it; fails when the streams did not
     * take the gateways the simulator predicted for them, since the figures would then be about
     * other paths than the scenario's.
     */
    public static GatewayFailover measured(String node, io.periscope.lab.failover.FailoverReport report) {
        if (!report.prediction().differences().isEmpty()) {
            throw new AssertionError("the streams did not take the gateways the simulator predicts for them:\n  "
                    + String.join("\n  ", report.prediction().differences()));
        }
        List<Stream> streams = report.streams().stream()
                .map(r -> new Stream(r.id(), r.before(), r.during(), r.after(), r.lostOnFailure(), r.lostOnHeal())).toList();
        // The fate with the socket's own words ("reset (Connection reset by peer)"), so that a failure says what ended it.
        List<Connection> connections = report.tcp().stream().map(t -> new Connection(t.outcome().id(),
                t.before(), t.during(), t.outcome().fate().equals("survived"),
                t.outcome().error().isEmpty() ? t.outcome().fate() : t.outcome().fate() + " (" + t.outcome().error() + ")")).toList();
        return new GatewayFailover(node, streams, connections);
    }


    /** Datagrams per second per UDP stream, on both backends: enough to see a loss window, little enough for a shared machine. */
    public static final int RATE = 100;
    /**
     * How long the gateway stays failed before it is healed, on both backends. 6 s, not 3: the streams'
     * "during" phase starts once they are where the simulator predicts, at the latest a second before the
     * heal, and in a full suite on 2 busy cores the production agents re-spread the surviving streams more
     * than 2 s after the failure (2026-11-30).
     */
    public static final Duration FAILED_FOR = Duration.ofSeconds(6);

    /** A UDP stream: gateways as {@code cluster/node}, packets lost while the node was failed and after it came back. */
    public record Stream(int id, Set<String> before, Set<String> during, Set<String> after, int lostOnFailure, int lostOnHeal) {

        public boolean changedGateway() {
            return !before.equals(during);
        }
    }

    /** A TCP connection and whether it survived the failure. */
    public record Connection(int id, Set<String> before, Set<String> during, boolean survived, String fate) {

        public boolean changedGateway() {
            return !before.equals(during);
        }
    }
}
