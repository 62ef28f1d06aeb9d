package io.periscope.model.policy;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CablePortsGiveEachDriverOfAGatewayItsOwnPort {

    /** Three clusters; {@code policies} decide which pair uses which driver. */
    private static CablePorts ports(String policies) throws TopologyException {
        ClusterSet set = TopologyLoader.parse("""
                clusters:
                  - name: a
                    labels: {site: a}
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [100.1.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}]
                  - name: b
                    labels: {site: b}
                    podCIDRs: [10.2.0.0/16]
                    serviceCIDRs: [100.2.0.0/16]
                    nodes: [{name: gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}]
                  - name: c
                    labels: {site: c}
                    podCIDRs: [10.3.0.0/16]
                    serviceCIDRs: [100.3.0.0/16]
                    nodes: [{name: gw, ip: 172.20.3.2, cniIP: 10.3.0.1, gateway: true}]
                """ + policies, "ports.yaml");
        return CablePorts.of(set, ClusterGraph.of(set));
    }

    @Test
    void aSingleDriverKeepsTheNatTPort() throws TopologyException {
        CablePorts ports = ports("defaults: {cableDriver: wireguard}\n");
        assertThat(ports.port("a", CableDriver.WIREGUARD)).isEqualTo(4500);
        assertThat(ports.ports("a")).containsExactly(4500);
    }

    @Test
    void vxlanKeeps4500AndTheOthersTakeTheNextFreePortsLibreswanFirst() throws TopologyException {
        CablePorts ports = ports("""
                connectionPolicies:
                  - {leftClusterSelector: {site: a}, rightClusterSelector: {site: b}, cableDriver: vxlan}
                  - {leftClusterSelector: {site: a}, rightClusterSelector: {site: c}, cableDriver: wireguard}
                  - {cableDriver: libreswan}
                """);
        assertThat(ports.port("a", CableDriver.VXLAN)).isEqualTo(4500);
        assertThat(ports.port("a", CableDriver.WIREGUARD)).isEqualTo(4501);
        // a talks vxlan to b and wireguard to c; b and c talk libreswan to each other.
        assertThat(ports.ports("a")).containsExactly(4500, 4501);
        assertThat(ports.port("b", CableDriver.LIBRESWAN)).isEqualTo(4501);
        assertThat(ports.port("c", CableDriver.LIBRESWAN)).isEqualTo(4500);
        assertThat(ports.port("c", CableDriver.WIREGUARD)).isEqualTo(4501);
        assertThat(ports.conflicts()).isEmpty();
    }

    @Test
    void anExplicitUdpPortIsTakenFirstAndTheOthersGoAroundIt() throws TopologyException {
        CablePorts ports = ports("""
                connectionPolicies:
                  - {leftClusterSelector: {site: a}, rightClusterSelector: {site: b}, cableDriver: {name: wireguard, options: {udp-port: 4500}}}
                  - {cableDriver: libreswan}
                """);
        assertThat(ports.port("a", CableDriver.WIREGUARD)).isEqualTo(4500);
        assertThat(ports.port("c", CableDriver.LIBRESWAN)).isEqualTo(4500);
    }
}
