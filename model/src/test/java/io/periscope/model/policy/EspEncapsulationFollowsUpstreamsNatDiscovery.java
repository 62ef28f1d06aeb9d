package io.periscope.model.policy;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's {@code endpointInfo.UseNAT || i.forceUDPEncapsulation}: NAT when either gateway's
 * {@code publicIP} differs from its {@code ip}, forcing from the policy's option as the loader reads it.
 */
class EspEncapsulationFollowsUpstreamsNatDiscovery {

    private static final CableDriverSpec PLAIN = CableDriverSpec.of(CableDriver.LIBRESWAN);

    private static Node gateway(String name, String ip, String publicIp) {
        return new Node(name, Ipv4Address.parse(ip), Ipv4Address.parse("10.0.0.1"), true,
                Optional.ofNullable(publicIp).map(Ipv4Address::parse));
    }

    @Test
    void gatewaysWithoutPublicIpsSendBareEsp() {
        EspEncapsulation e = EspEncapsulation.between(gateway("a", "172.20.1.2", null), gateway("b", "172.20.2.2", null), PLAIN);
        assertThat(e).isEqualTo(new EspEncapsulation.Bare());
        assertThat(e.inUdp()).isFalse();
        assertThat(e.why()).startsWith("ESP (IP protocol 50): no NAT between the endpoints");
    }

    @Test
    void aPublicIpOtherThanTheIpOnEitherSideIsNatAndNamesTheGatewaysBehindIt() {
        Node natted = gateway("a", "172.20.1.2", "198.51.100.1");
        Node plain = gateway("b", "172.20.2.2", null);
        assertThat(EspEncapsulation.between(natted, plain, PLAIN)).isEqualTo(EspEncapsulation.between(plain, natted, PLAIN))
                .isEqualTo(new EspEncapsulation.NatTraversal(List.of("a (publicIP 198.51.100.1, ip 172.20.1.2)")));
        EspEncapsulation both = EspEncapsulation.between(natted, gateway("c", "172.20.3.2", "198.51.100.3"), PLAIN);
        assertThat(both.inUdp()).isTrue();
        assertThat(both.why()).isEqualTo("ESP in UDP (NAT-T): a (publicIP 198.51.100.1, ip 172.20.1.2) and c (publicIP 198.51.100.3,"
                + " ip 172.20.3.2) are behind NAT");
        // A publicIP equal to the ip is no NAT: the probe reaches the private address unchanged.
        assertThat(EspEncapsulation.between(gateway("d", "172.20.4.2", "172.20.4.2"), plain, PLAIN).inUdp()).isFalse();
    }

    @Test
    void forceUdpEncapsulationForcesUdpWithoutNatAndFalseLeavesItToNat() {
        Node a = gateway("a", "172.20.1.2", null);
        Node b = gateway("b", "172.20.2.2", null);
        assertThat(EspEncapsulation.between(a, b, new CableDriverSpec(CableDriver.LIBRESWAN, Map.of("forceUDPEncapsulation", "true"))))
                .isEqualTo(new EspEncapsulation.Forced());
        assertThat(EspEncapsulation.between(a, b, new CableDriverSpec(CableDriver.LIBRESWAN, Map.of("forceUDPEncapsulation", "false"))))
                .isEqualTo(new EspEncapsulation.Bare());
    }

    @Test
    void theLoaderReadsTheOptionFromAYamlBoolean() throws TopologyException {
        ClusterSet set = TopologyLoader.parse("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                  - name: west
                    podCIDRs: [10.2.0.0/16]
                    serviceCIDRs: [10.97.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}
                connectionPolicies:
                  - cableDriver: {name: libreswan, options: {forceUDPEncapsulation: true, udp-port: 4510}}
                """, "t.yaml");
        CableDriverSpec cable = set.connectionPolicies().getFirst().cableDriver();
        assertThat(cable.options()).containsEntry("forceUDPEncapsulation", "true");
        assertThat(EspEncapsulation.forced(cable)).contains(true);
    }
}
