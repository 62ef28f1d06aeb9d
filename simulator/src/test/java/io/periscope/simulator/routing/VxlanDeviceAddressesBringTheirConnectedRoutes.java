package io.periscope.simulator.routing;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agents add a VXLAN device's address with its network's length ({@code addr add 240.18.0.6/8 dev
 * vx-submariner}), and the kernel then routes that network by the device on its own: {@code
 * 240.0.0.0/8 dev vx-submariner proto kernel scope link src 240.18.0.6}. The simulator's routing has
 * it too, so a reverse-path check of a packet from a node's vx-submariner address passes as in the
 * kernel ({@code CniMasqueradeAgreesWithTheKernel} in the lab).
 */
class VxlanDeviceAddressesBringTheirConnectedRoutes {

    @Test
    void aGatewayRoutesBothTunnelNetworksByTheirDevices() throws Exception {
        DataplanePlan gateway = Planner.plan(TopologyLoader.load(Path.of("..", "examples", "mag-vanilla.yaml")))
                .hosts().get(HostId.node("cluster1", "gw-1")).effective();

        List<Route> routes = RoutingPolicy.withConnectedRoutes(gateway);

        assertThat(routes).containsAll(gateway.routes());
        assertThat(routes).filteredOn(r -> r.protocol() == RouteProtocol.KERNEL).extracting(r -> List.of(r.destination().toString(),
                        r.nexthops().getFirst().device(), r.source().map(Ipv4Address::toString).orElse("")))
                .containsExactlyInAnyOrder(List.of("240.0.0.0/8", "vx-submariner", "240.18.0.6"), List.of("241.0.0.0/8", "vxlan-tunnel", "241.18.0.6"));
        RoutingPolicy policy = RoutingPolicy.compile("cluster1/gw-1", gateway, java.util.Map.of());
        assertThat(policy.lookup(Ipv4Address.parse("240.18.0.10"), Ipv4Address.parse("10.2.128.5"), 0, RoutingPolicy.LOOPBACK, null))
                .isInstanceOfSatisfying(RouteDecision.Forward.class, f -> assertThat(f.route().text())
                        .isEqualTo("240.0.0.0/8 dev vx-submariner proto kernel scope link src 240.18.0.6"));
    }
}
