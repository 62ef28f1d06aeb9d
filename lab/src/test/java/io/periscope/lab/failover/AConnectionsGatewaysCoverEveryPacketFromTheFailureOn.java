package io.periscope.lab.failover;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A TCP connection's gateways after a failure ({@link GatewayCounters#carried}): every packet counted
 * from the reading just before the failure on, so that a retransmission that left by another gateway
 * at any moment shows; the failed node only where it forwarded, since a blackhole swallows what
 * reaches it and a swallowed segment resets nothing.
 */
class AConnectionsGatewaysCoverEveryPacketFromTheFailureOn {

    private static final String FAILED = "cluster1/gw-1";
    private static final String SURVIVOR = "cluster1/gw-2";
    private static final String OTHER = "cluster1/gw-5";

    /** Counts of one connection (index 0) on the three gateways. */
    private static Map<String, long[]> counts(long failed, long survivor, long other) {
        return Map.of(FAILED, new long[] {failed}, SURVIVOR, new long[] {survivor}, OTHER, new long[] {other});
    }

    @Test
    void aRetransmissionThroughAnotherGatewayRightAfterTheFailureCounts() {
        // One segment through gw-5 in the first moments, before any later reading: the connection moved.
        Map<String, long[]> failure = counts(0, 100, 0);
        Map<String, long[]> healed = counts(0, 400, 1);
        Map<String, long[]> last = counts(0, 700, 1);

        assertThat(GatewayCounters.carried(failure, Optional.of(healed), last, 0, Optional.of(FAILED))).containsExactly(SURVIVOR, OTHER);
    }

    @Test
    void whatTheBlackholeSwallowedIsLeftOutUntilTheHeal() {
        // A connection of the failed gateway whose retransmissions only ever reached it, and which went on there once healed.
        Map<String, long[]> failure = counts(100, 0, 0);
        Map<String, long[]> healed = counts(104, 0, 0);
        Map<String, long[]> last = counts(300, 0, 0);

        assertThat(GatewayCounters.carried(failure, Optional.of(healed), last, 0, Optional.of(FAILED))).containsExactly(FAILED);
        assertThat(GatewayCounters.carried(failure, Optional.of(healed), healed, 0, Optional.of(FAILED))).isEmpty();
    }

    @Test
    void aFailedNodeThatStillForwardsCounts() {
        // Agents stopped: what they programmed forwards, so packets through the failed node reached the server.
        Map<String, long[]> failure = counts(100, 0, 0);
        Map<String, long[]> last = counts(200, 0, 0);

        assertThat(GatewayCounters.carried(failure, Optional.empty(), last, 0, Optional.empty())).containsExactly(FAILED);
        assertThat(GatewayCounters.carried(failure, Optional.empty(), last, 0, Optional.of(FAILED))).isEmpty();
    }
}
