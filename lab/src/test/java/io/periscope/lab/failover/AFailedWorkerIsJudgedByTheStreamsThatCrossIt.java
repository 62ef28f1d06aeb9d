package io.periscope.lab.failover;

import io.periscope.lab.state.NodeFailure;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker is on no stream's gateways: {@code lab failover} of a worker judges each stream by whether its
 * simulated path crosses the worker (cut while crashed or blackholed, untouched otherwise), and {@code lab fail}
 * names each link it set down by the switch it plugs into, since the port has the node's name on every switch.
 */
class AFailedWorkerIsJudgedByTheStreamsThatCrossIt {

    private static final UdpStreams.Stream STREAM = new UdpStreams.Stream(3, "f", "psc-aece28-cluster1-default-client", "10.1.128.4", 42003,
            "100.2.0.132", 5001);

    private static LabFailover.Options crash() {
        return new LabFailover.Options("cluster2/worker-2", FailureMode.CRASH, 4, 200, 0, Optional.empty());
    }

    @Test
    void aStreamThroughTheCrashedWorkerThatStillArrivesIsADifference() {
        assertThat(LabFailover.workerFailure(STREAM, true, crash(), 800, 10)).get().asString()
                .startsWith("stream 3 (port 42003): its path crosses the failed cluster2/worker-2, yet 790 of 800");
        assertThat(LabFailover.workerFailure(STREAM, true, crash(), 800, 800)).isEmpty();
    }

    @Test
    void aStreamElsewhereThatLosesEverythingIsADifference() {
        assertThat(LabFailover.workerFailure(STREAM, false, crash(), 800, 800)).get().asString()
                .contains("its path does not cross cluster2/worker-2, yet all 800 datagrams");
        assertThat(LabFailover.workerFailure(STREAM, false, crash(), 800, 3)).isEmpty();
    }

    @Test
    void aWorkerWhoseAgentsAloneStoppedStillForwards() {
        LabFailover.Options agentStop = new LabFailover.Options("cluster2/worker-2", FailureMode.AGENT_STOP, 4, 200, 0, Optional.empty());
        assertThat(LabFailover.workerFailure(STREAM, true, agentStop, 800, 0)).isEmpty();
        assertThat(LabFailover.workerFailure(STREAM, true, agentStop, 800, 800)).get().asString().contains("only had its agents stopped");
    }

    @Test
    void eachLinkDownIsNamedByItsSwitch() {
        NodeFailure failure = new NodeFailure("cluster1/gw-1", "crash", "psc-aece28-cluster1-gw-1", List.of(
                new NodeFailure.DownedLink("psc-aece28-sw-cluster1-underlay", "gw-1", ""),
                new NodeFailure.DownedLink("psc-aece28-sw-wan", "gw-1", "")), "", true);

        assertThat(LabFailure.describe(failure)).isEqualTo("crashed: agents stopped, 2 links down (gw-1 in sw-cluster1-underlay, gw-1 in sw-wan)");
    }
}
