package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.EspEncapsulation;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden checks of examples/client-server.yaml, whose pairs use the default cable driver, libreswan:
 * the connection set upstream's driver whacks into pluto, and the routes that lead packets to the
 * XFRM policies.
 */
class LibreswanCablePlanFollowsUpstream {

    private final ClusterSetPlan plan = PlannedExamples.plan("client-server.yaml");

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static Ipv4Prefix net(String text) {
        return Ipv4Prefix.parse(text);
    }

    @Test
    void theServerGatewayHasOneConnectionPerLocalSubnetAndRemoteSubnetOfEachClient() {
        List<IpsecConnection> connections = submariner(plan, "server", "server-gw").ipsecConnections();
        assertThat(connections).extracting(IpsecConnection::name).containsExactly(
                "submariner-cable-client1-172-30-11-2-0-0", "submariner-cable-client1-172-30-11-2-0-1",
                "submariner-cable-client1-172-30-11-2-1-0", "submariner-cable-client1-172-30-11-2-1-1",
                "submariner-cable-client2-172-30-12-2-0-0", "submariner-cable-client2-172-30-12-2-0-1",
                "submariner-cable-client2-172-30-12-2-1-0", "submariner-cable-client2-172-30-12-2-1-1");
        assertThat(connections.get(1)).isEqualTo(new IpsecConnection("submariner-cable-client1-172-30-11-2-0-1",
                ip("172.30.10.2"), ip("172.30.10.2"), net("100.10.0.0/16"), 4500,
                ip("172.30.11.2"), ip("172.30.11.2"), net("10.11.0.0/16"), 4500,
                "submariner-psk", new EspEncapsulation.Bare(), Optional.empty(), Optional.empty()));
    }

    @Test
    void aClientGatewayConnectsOnlyToTheServer() {
        DataplanePlan client1 = submariner(plan, "client1", "client1-gw");
        assertThat(client1.ipsecConnections()).hasSize(4).allSatisfy(c -> {
            assertThat(c.right()).isEqualTo(ip("172.30.10.2"));
            assertThat(c.name()).startsWith("submariner-cable-server-172-30-10-2-");
        });
        assertThat(client1.ipsecConnections()).anySatisfy(c -> assertThat(c.mirrors(
                submariner(plan, "server", "server-gw").ipsecConnections().getFirst())).isTrue());
    }

    @Test
    void table100SendsTheRemoteSubnetsOutOfTheWanWithTheCniAddressAsSourceAndNoVxlanCableExists() {
        DataplanePlan server = submariner(plan, "server", "server-gw");
        assertThat(server.routesIn(100)).extracting(Route::destination).containsExactly(
                net("100.11.0.0/16"), net("10.11.0.0/16"), net("100.12.0.0/16"), net("10.12.0.0/16"));
        assertThat(server.routesIn(100)).allSatisfy(r -> {
            assertThat(r.nexthops()).containsExactly(Nexthop.direct("wan0"));
            assertThat(r.source()).contains(ip("10.10.0.1"));
        });
        assertThat(server.vxlanDevices()).extracting(d -> d.name()).containsExactly("vx-submariner");
        assertThat(server.wireGuardDevices()).isEmpty();
    }

    @Test
    void proposalsComeFromTheConnectionPolicysOptionsAndAreLibreswansDefaultsOtherwise() {
        ClusterSet base = PlannedExamples.load("client-server.yaml");
        ClusterSet withProposals = new ClusterSet(base.name(), base.globalnet(), base.defaultCableDriver(), base.clusters(),
                base.connectivityPolicies(), List.of(new ClusterConnectionPolicy(LabelSelector.EVERYTHING, LabelSelector.EVERYTHING,
                new CableDriverSpec(CableDriver.LIBRESWAN, Map.of("ike", "aes256-sha2_256;modp2048", "esp", "aes256-sha2_256")))),
                base.flows());
        assertThat(submariner(Planner.plan(withProposals), "server", "server-gw").ipsecConnections()).allSatisfy(c -> {
            assertThat(c.ike()).contains("aes256-sha2_256;modp2048");
            assertThat(c.esp()).contains("aes256-sha2_256");
        });
        assertThat(submariner(plan, "server", "server-gw").ipsecConnections()).allSatisfy(c -> assertThat(c.ike()).isEmpty());
    }

    /**
     * Upstream gives whack {@code --forceencaps} when NAT discovery finds NAT or the driver is told to
     * force it: client-server's gateways have no publicIP (bare ESP); give the server's one and both
     * ends of its connections encapsulate, naming it; the policy's option forces it everywhere.
     */
    @Test
    void udpEncapsulationOnlyWhereAGatewayIsBehindNatOrThePolicyForcesIt() {
        assertThat(submariner(plan, "client2", "client2-gw").ipsecConnections()).allSatisfy(c -> {
            assertThat(c.forceEncapsulation()).isFalse();
            assertThat(c.encapsulation()).isEqualTo(new EspEncapsulation.Bare());
        });

        ClusterSet base = PlannedExamples.load("client-server.yaml");
        ClusterSet serverBehindNat = base.withClusters(base.clusters().stream().map(c -> !c.name().equals("server") ? c
                : c.withNodes(c.nodes().stream().map(n -> !n.gateway() ? n : new Node(n.name(), n.ip(), n.cniIp(), true,
                        Optional.of(ip("198.51.100.10")))).toList())).toList());
        ClusterSetPlan natted = Planner.plan(serverBehindNat);
        EspEncapsulation nat = new EspEncapsulation.NatTraversal(List.of("server-gw (publicIP 198.51.100.10, ip 172.30.10.2)"));
        assertThat(submariner(natted, "client1", "client1-gw").ipsecConnections()).isNotEmpty().allSatisfy(c -> {
            assertThat(c.right()).isEqualTo(ip("198.51.100.10"));
            assertThat(c.forceEncapsulation()).isTrue();
            assertThat(c.encapsulation()).isEqualTo(nat);
        });
        assertThat(submariner(natted, "server", "server-gw").ipsecConnections()).isNotEmpty()
                .allSatisfy(c -> assertThat(c.encapsulation()).isEqualTo(nat));

        ClusterSet forced = new ClusterSet(base.name(), base.globalnet(), base.defaultCableDriver(), base.clusters(),
                base.connectivityPolicies(), List.of(new ClusterConnectionPolicy(LabelSelector.EVERYTHING, LabelSelector.EVERYTHING,
                new CableDriverSpec(CableDriver.LIBRESWAN, Map.of("forceUDPEncapsulation", "true")))), base.flows());
        assertThat(submariner(Planner.plan(forced), "server", "server-gw").ipsecConnections()).isNotEmpty()
                .allSatisfy(c -> assertThat(c.encapsulation()).isEqualTo(new EspEncapsulation.Forced()));
    }

    @Test
    void withSeveralRemoteActiveGatewaysTheConnectionsGoToTheFirstOnly() {
        ClusterSetPlan libreswan = Planner.plan(PlannedExamples.withDefaultDriver(PlannedExamples.load("mag-globalnet.yaml"),
                CableDriver.LIBRESWAN));
        for (String gateway : List.of("gw-1", "gw-2")) {
            assertThat(submariner(libreswan, "cluster1", gateway).ipsecConnections()).singleElement().satisfies(c -> {
                assertThat(c.name()).isEqualTo("submariner-cable-cluster2-172-18-0-4-0-0");
                assertThat(c.leftSubnet()).isEqualTo(net("242.254.1.0/24"));
                assertThat(c.rightSubnet()).isEqualTo(net("242.254.2.0/24"));
            });
        }
    }
}
