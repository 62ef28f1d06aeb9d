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

    /** Datagrams per second per UDP stream, on both backends: enough to see a loss window, little enough for a shared machine. */
    public static final int RATE = 100;
    /** How long the gateway stays failed before it is healed, on both backends. */
    public static final Duration FAILED_FOR = Duration.ofSeconds(3);

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
