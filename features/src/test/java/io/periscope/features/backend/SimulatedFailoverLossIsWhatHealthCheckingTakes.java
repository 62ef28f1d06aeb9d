package io.periscope.features.backend;

import io.periscope.lab.failover.FailoverPrediction.PredictedStream;
import io.periscope.lab.failover.FailoverLossWindow;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.dataplane.health.HealthSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator backend's failover figures are its prediction: a stream through the failed gateway
 * loses what it sends while health checking has not yet withdrawn the gateway, the others nothing.
 * By hand, with the defaults (probes every 40 ms, down after 3 unanswered, 20 ms to reprogram the
 * route): 140 to 180 ms, 160 ms expected, so 16 datagrams at the scenarios' 100 a second.
 */
class SimulatedFailoverLossIsWhatHealthCheckingTakes {

    private static final String TWO_GATEWAYS = """
            name: failover-loss
            defaults: {cableDriver: vxlan}
            clusters:
              - name: cluster1
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                multiActiveGateways: true
                nodes:
                  - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
                  - {name: gw-2, ip: 172.18.0.8, cniIP: 10.1.64.1, gateway: true}
                  - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
                pods:
                  - {name: client, node: worker-1, ip: 10.1.128.4}
              - name: cluster2
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: gw-3, ip: 172.18.0.4, cniIP: 10.2.0.1, gateway: true}
                  - {name: worker-2, ip: 172.18.0.12, cniIP: 10.2.128.1}
                pods:
                  - {name: server, node: worker-2, ip: 10.2.128.5}
            """;

    @Test
    void streamsThroughTheFailedGatewayLoseTheExpectedWindowAndTheOthersNothing() throws Exception {
        Deployment deployment = new SimulatorBackend().deploy(TopologyLoader.parse(TWO_GATEWAYS, "failover-loss.yaml"));
        Flow udp = new Flow("streams", FlowEndpointSyntax.parseSource("cluster1/default/client"),
                FlowEndpointSyntax.parseTarget("cluster2/default/server:5001"), Protocol.UDP, Optional.of(Disposition.DELIVERED));
        Flow tcp = new Flow("connections", FlowEndpointSyntax.parseSource("cluster1/default/client"),
                FlowEndpointSyntax.parseTarget("cluster2/default/server:80"), Protocol.TCP, Optional.of(Disposition.DELIVERED));

        GatewayFailover failover = deployment.failover(udp, 24, tcp, 2, "cluster1/gw-1");

        List<GatewayFailover.Stream> throughFailed = failover.streams().stream().filter(s -> s.before().contains("cluster1/gw-1")).toList();
        List<GatewayFailover.Stream> others = failover.streams().stream().filter(s -> !s.before().contains("cluster1/gw-1")).toList();
        assertThat(throughFailed).isNotEmpty();
        assertThat(others).isNotEmpty();
        assertThat(throughFailed).allSatisfy(s -> assertThat(s.lostOnFailure()).as("stream %d", s.id()).isEqualTo(16));
        assertThat(others).allSatisfy(s -> assertThat(s.lostOnFailure()).as("stream %d", s.id()).isZero());
    }

    /** Slower probing on delayed links (here 70 ms x 5) widens the window: 370 to 440 ms, 405 expected, 41 datagrams. */
    @Test
    void theWindowFollowsTheHealthSettings() {
        FailoverLossWindow slow = FailoverLossWindow.of(new HealthSettings(Duration.ofMillis(70), 5, Duration.ofSeconds(2)));
        PredictedStream moved = new PredictedStream(0, Set.of("cluster1/gw-1"), Set.of("cluster1/gw-2"), Set.of("cluster1/gw-1"));

        assertThat(SimulatedDeployment.lostOnFailure(moved, "cluster1/gw-1", slow)).isEqualTo(41);
    }

    /** A stream with nowhere else to go keeps being sent into the failed gateway: it loses the whole failure, 100 datagrams a second for 6 s. */
    @Test
    void aStreamThatCannotMoveLosesTheWholeFailure() {
        PredictedStream stuck = new PredictedStream(0, Set.of("cluster1/gw-1"), Set.of("cluster1/gw-1"), Set.of("cluster1/gw-1"));

        assertThat(SimulatedDeployment.lostOnFailure(stuck, "cluster1/gw-1", FailoverLossWindow.of(HealthSettings.DEFAULTS))).isEqualTo(600);
    }
}
