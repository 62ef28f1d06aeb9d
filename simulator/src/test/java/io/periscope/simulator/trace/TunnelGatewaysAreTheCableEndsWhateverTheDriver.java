package io.periscope.simulator.trace;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateways a flow crosses, as {@code trace --fail} and the what-if view list them before and
 * after: both ends of the cable it takes, whether the cable is VXLAN, WireGuard or Libreswan's ESP
 * (once only the VXLAN-entered ones were found, so a WireGuard flow listed its local gateway alone).
 */
class TunnelGatewaysAreTheCableEndsWhateverTheDriver {

    @ParameterizedTest(name = "{1} ({2})")
    @CsvSource(delimiter = ';', value = {
            "on-premise-vxlan-cloud-wireguard.yaml; frontend-to-inventory; vxlan; onprem1/onprem1-gw onprem2/onprem2-gw",
            "on-premise-vxlan-cloud-wireguard.yaml; frontend-to-analytics; wireguard; onprem1/onprem1-gw cloud/cloud-gw",
            "on-premise-vxlan-cloud-wireguard.yaml; analytics-ping-frontend; wireguard; cloud/cloud-gw onprem1/onprem1-gw",
            "client-server.yaml; client1-to-db; esp; client1/client1-gw server/server-gw",
            "client-server.yaml; db-to-client1; esp; server/server-gw client1/client1-gw"})
    void bothEndsOfTheCableAreListedInTheOrderCrossed(String example, String flow, String encapsulation, String gateways) throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", example));
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(set.flow(flow).orElseThrow());

        // The flow does cross the cable under test, so the gateways are found by its encapsulation.
        assertThat(trace.paths().getFirst().forward()).flatMap(Hop::steps)
                .anySatisfy(step -> assertThat(step).isInstanceOfSatisfying(Step.Decap.class,
                        decap -> assertThat(decap.encapsulation().jsonName()).isEqualTo(encapsulation)));
        assertThat(TunnelGateways.of(trace.paths())).containsExactlyElementsOf(List.of(gateways.split(" ")));
    }
}
