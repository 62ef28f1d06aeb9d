package io.periscope.dataplane.ipsec;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.EspEncapsulation;
import io.periscope.plan.cable.IpsecConnection;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IpsecConfRendererWritesWhatUpstreamWhacks {

    private static IpsecConnection connection(String name, String leftSubnet, String rightSubnet, Optional<String> ike) {
        return connection(name, leftSubnet, rightSubnet, ike, new EspEncapsulation.NatTraversal(List.of("c1-gw (publicIP 198.51.100.1, ip 172.18.0.6)")));
    }

    private static IpsecConnection connection(String name, String leftSubnet, String rightSubnet, Optional<String> ike,
                                              EspEncapsulation encapsulation) {
        return new IpsecConnection(name, Ipv4Address.parse("198.51.100.1"), Ipv4Address.parse("172.18.0.6"), Ipv4Prefix.parse(leftSubnet),
                4500, Ipv4Address.parse("198.51.100.2"), Ipv4Address.parse("172.18.0.4"), Ipv4Prefix.parse(rightSubnet), 4501,
                "submariner-psk", encapsulation, ike, Optional.empty());
    }

    @Test
    void eachConnectionIsAConnSectionWithBothEndsPortsEncapsulationWithItsReasonAndUpstreamsDeadPeerDetection() {
        String text = IpsecConfRenderer.render(List.of(
                connection("submariner-cable-c2-172-18-0-4-0-0", "10.1.0.0/16", "10.2.0.0/16", Optional.empty()),
                connection("submariner-cable-c2-172-18-0-4-0-1", "10.1.0.0/16", "100.2.0.0/16", Optional.of("aes256-sha2_256;modp2048"))));

        assertThat(text).isEqualTo("""
                conn submariner-cable-c2-172-18-0-4-0-0
                \tauto=start
                \ttype=tunnel
                \tauthby=secret
                \tleft=198.51.100.1
                \tleftid=172.18.0.6
                \tleftsubnet=10.1.0.0/16
                \tleftikeport=4500
                \tright=198.51.100.2
                \trightid=172.18.0.4
                \trightsubnet=10.2.0.0/16
                \trightikeport=4501
                \t# ESP in UDP (NAT-T): c1-gw (publicIP 198.51.100.1, ip 172.18.0.6) is behind NAT
                \tencapsulation=yes
                \tdpdaction=hold
                \tdpddelay=30

                conn submariner-cable-c2-172-18-0-4-0-1
                \tauto=start
                \ttype=tunnel
                \tauthby=secret
                \tleft=198.51.100.1
                \tleftid=172.18.0.6
                \tleftsubnet=10.1.0.0/16
                \tleftikeport=4500
                \tright=198.51.100.2
                \trightid=172.18.0.4
                \trightsubnet=100.2.0.0/16
                \trightikeport=4501
                \t# ESP in UDP (NAT-T): c1-gw (publicIP 198.51.100.1, ip 172.18.0.6) is behind NAT
                \tencapsulation=yes
                \tdpdaction=hold
                \tdpddelay=30
                \tike=aes256-sha2_256;modp2048
                """);
        assertThat(text).doesNotContain("submariner-psk");
    }

    /** Without NAT and without forceUDPEncapsulation upstream passes no --forceencaps: Libreswan's own default, auto. */
    @Test
    void withoutNatOrForcingEncapsulationIsLeftToLibreswanAndTheReasonSaysEsp() {
        String text = IpsecConfRenderer.render(List.of(connection("a", "10.1.0.0/16", "10.2.0.0/16", Optional.empty(),
                new EspEncapsulation.Bare())));
        assertThat(text).contains("\tencapsulation=auto\n").doesNotContain("encapsulation=yes")
                .contains("\t# ESP (IP protocol 50): no NAT between the endpoints");
        assertThat(IpsecConfRenderer.render(List.of(connection("a", "10.1.0.0/16", "10.2.0.0/16", Optional.empty(),
                new EspEncapsulation.Forced())))).contains("\t# ESP in UDP: the connection policy sets forceUDPEncapsulation: true\n"
                + "\tencapsulation=yes\n");
    }

    @Test
    void secretsHoldOneLinePerKeyTheConnectionsNameWithTheKeyTheCallerGives() {
        List<IpsecConnection> connections = List.of(connection("a", "10.1.0.0/16", "10.2.0.0/16", Optional.empty()),
                connection("b", "10.1.0.0/16", "100.2.0.0/16", Optional.empty()));
        assertThat(IpsecConfRenderer.renderSecrets(connections, Map.of("submariner-psk", "s3cret")::get))
                .isEqualTo("%any %any : PSK \"s3cret\"\n");
        assertThatThrownBy(() -> IpsecConfRenderer.renderSecrets(connections, id -> null))
                .hasMessageContaining("pre-shared key 'submariner-psk' is missing");
    }
}
