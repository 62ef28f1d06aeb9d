package io.periscope.features.lab;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class KernelTunnelsTellTheConnectionsFromTheCables {

    private static final ClusterSet SET = parse("""
            name: three
            defaults: {cableDriver: vxlan}
            clusters:
              - name: a
                podCIDRs: [10.10.0.0/16]
                serviceCIDRs: [10.110.0.0/16]
                nodes: [{name: a-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
              - name: b
                podCIDRs: [10.20.0.0/16]
                serviceCIDRs: [10.120.0.0/16]
                nodes: [{name: b-gw, ip: 172.18.2.2, cniIP: 10.20.0.1, gateway: true}]
              - name: c
                podCIDRs: [10.30.0.0/16]
                serviceCIDRs: [10.130.0.0/16]
                nodes: [{name: c-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
            """);

    private static final HostId A = HostId.node("a", "a-gw");
    private static final HostId B = HostId.node("b", "b-gw");
    private static final HostId C = HostId.node("c", "c-gw");

    private static FdbEntry to(String address) {
        return new FdbEntry("vxlan-tunnel", MacAddress.parse("00:00:00:00:00:00"), Ipv4Address.parse(address));
    }

    private static List<String> pairs(KernelTunnels tunnels) {
        return tunnels.connections(ClusterGraph.of(SET).connections()).stream()
                .map(c -> c.left() + "-" + c.right() + " " + c.cableDriver().name().yamlName()).sorted().toList();
    }

    @Test
    void aPairIsConnectedByTheDriverOfTheCablesItsGatewaysHoldEachWay() {
        KernelTunnels tunnels = KernelTunnels.of(SET, Map.of(A, List.of(to("172.18.2.2")), B, List.of(to("172.18.1.2"))),
                Map.of(A, List.of(Ipv4Address.parse("172.18.3.2")), C, List.of(Ipv4Address.parse("172.18.1.2"))));

        assertThat(pairs(tunnels)).containsExactly("a-b vxlan", "a-c wireguard");
    }

    @Test
    void aCableHeldOneWayOnlyOrToTheGatewaysOwnClusterConnectsNothing() {
        KernelTunnels tunnels = KernelTunnels.of(SET, Map.of(A, List.of(to("172.18.2.2"), to("172.18.1.2")), B, List.of()), Map.of());

        assertThat(pairs(tunnels)).isEmpty();
        assertThat(tunnels.peersOf(B)).containsExactly(A);
    }

    private static io.periscope.model.topology.ClusterSet parse(String yaml) {
        try {
            return TopologyLoader.parse(yaml, "three.yaml");
        } catch (io.periscope.model.load.TopologyException e) {
            throw new IllegalStateException(e.report(), e);
        }
    }
}
