package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.periscope.planner.PlannedExamples.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's Libreswan driver connects from the local Endpoint's private IP and leaves the public one
 * to the NAT device in front of the gateway. Periscope's agents program the same connections; the NAT
 * device is the environment's: a 1:1 translation on {@code wan0}, and routes to the other gateways
 * that send from the private address. One cluster's gateway behind NAT, the other's not.
 */
class AGatewayBehindNatSendsFromItsPrivateAddressThroughTheEnvironmentsNat {

    private static final String TOPOLOGY = """
            name: nat
            defaults:
              cableDriver: libreswan
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: east-gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true, publicIP: 198.51.100.1}
              - name: west
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: west-gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}
            """;

    private final ClusterSetPlan plan = Planner.plan(PlannedExamples.parse(TOPOLOGY));

    private HostPlan host(String cluster, String node) {
        return plan.host(HostId.node(cluster, node)).orElseThrow();
    }

    private static Route routeTo(DataplanePlan environment, String address) {
        return environment.routes().stream().filter(r -> r.destination().equals(Ipv4Prefix.host(Ipv4Address.parse(address))))
                .findFirst().orElseThrow(() -> new AssertionError("no route to " + address));
    }

    @Test
    void theLibreswanConnectionsGoFromThePrivateAddressToThePeersEndpointAddress() {
        for (IpsecConnection c : host("east", "east-gw").submariner().ipsecConnections()) {
            assertThat(c.left()).isEqualTo(Ipv4Address.parse("172.20.1.2"));
            assertThat(c.leftId()).isEqualTo(Ipv4Address.parse("172.20.1.2"));
            assertThat(c.right()).isEqualTo(Ipv4Address.parse("172.20.2.2"));
        }
        for (IpsecConnection c : host("west", "west-gw").submariner().ipsecConnections()) {
            assertThat(c.left()).isEqualTo(Ipv4Address.parse("172.20.2.2"));
            assertThat(c.right()).isEqualTo(Ipv4Address.parse("198.51.100.1"));
            assertThat(c.rightId()).isEqualTo(Ipv4Address.parse("172.20.1.2"));
        }
        assertThat(host("west", "west-gw").submariner().ipsecConnections()).isNotEmpty()
                .allSatisfy(c -> assertThat(host("east", "east-gw").submariner().ipsecConnections()).anyMatch(e -> e.mirrors(c)));
    }

    @Test
    void theEnvironmentTranslatesBetweenThePrivateAndThePublicAddressOnTheWan() {
        DataplanePlan environment = host("east", "east-gw").environment();
        assertThat(rules(environment, Table.NAT, "PREROUTING")).contains("-i wan0 -m comment --comment \"the NAT device in front of the "
                + "gateway: its public IP to its private one\" -j NAT-DEVICE-IN");
        assertThat(rules(environment, Table.NAT, "NAT-DEVICE-IN")).containsExactly("-d 198.51.100.1/32 -j DNAT --to-destination 172.20.1.2");
        assertThat(rules(environment, Table.NAT, "POSTROUTING")).contains("-o wan0 -m comment --comment \"the NAT device in front of the "
                + "gateway: its private IP to its public one\" -j NAT-DEVICE-OUT");
        assertThat(rules(environment, Table.NAT, "NAT-DEVICE-OUT")).containsExactly("-s 172.20.1.2/32 -j SNAT --to-source 198.51.100.1");
        // wan0 holds the public IP, where the other gateways find the device; the machine sends from its private one.
        assertThat(host("east", "east-gw").interfaces()).anySatisfy(i -> {
            assertThat(i.name()).isEqualTo("wan0");
            assertThat(i.addresses()).containsExactly(Ipv4Address.parse("198.51.100.1"));
        });
        assertThat(routeTo(environment, "172.20.2.2").source()).contains(Ipv4Address.parse("172.20.1.2"));
        // None of it is what the agents program.
        assertThat(host("east", "east-gw").submariner().table(Table.NAT).flatMap(t -> t.chain("NAT-DEVICE-OUT"))).isEmpty();
    }

    @Test
    void aGatewayNotBehindNatHasNoNatDeviceAndSendsFromItsWanAddress() {
        DataplanePlan environment = host("west", "west-gw").environment();
        assertThat(rules(environment, Table.NAT, "NAT-DEVICE-IN")).isEmpty();
        assertThat(rules(environment, Table.NAT, "NAT-DEVICE-OUT")).isEmpty();
        assertThat(rules(environment, Table.NAT, "POSTROUTING")).noneMatch(r -> r.contains("NAT-DEVICE"));
        assertThat(routeTo(environment, "198.51.100.1").source()).isEqualTo(Optional.empty());
    }
}
