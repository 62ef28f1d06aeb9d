package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.CableDriver;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden checks of examples/on-premise-vxlan-cloud-wireguard.yaml (seed 001's second connection
 * policy example): vxlan between the on-premise gateways, WireGuard from both to the cloud, side by side.
 */
class WireGuardCablePlanFollowsUpstream {

    private final ClusterSetPlan plan = PlannedExamples.plan("on-premise-vxlan-cloud-wireguard.yaml");

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static Ipv4Prefix net(String text) {
        return Ipv4Prefix.parse(text);
    }

    @Test
    void theCloudGatewayHasTheSubmarinerDeviceWithAPeerPerOnPremiseGateway() {
        DataplanePlan cloud = submariner(plan, "cloud", "cloud-gw");
        assertThat(cloud.wireGuardDevices()).containsExactly(new WireGuardDevice("submariner", 4500, "wireguard/cloud/cloud-gw", 1420, List.of(
                new WireGuardPeer("onprem1/onprem1-gw", "wireguard/onprem1/onprem1-gw", "submariner-psk", ip("172.31.21.2"), 4501,
                        List.of(net("100.21.0.0/16"), net("10.21.0.0/16")), 10),
                new WireGuardPeer("onprem2/onprem2-gw", "wireguard/onprem2/onprem2-gw", "submariner-psk", ip("172.31.22.2"), 4501,
                        List.of(net("100.22.0.0/16"), net("10.22.0.0/16")), 10))));
        assertThat(cloud.vxlanDevices()).extracting(d -> d.name()).containsExactly("vx-submariner");
    }

    @Test
    void anOnPremiseGatewayRunsVxlanToItsPeerAndWireGuardToTheCloudSideBySide() {
        DataplanePlan onprem1 = submariner(plan, "onprem1", "onprem1-gw");
        assertThat(onprem1.vxlanDevices()).extracting(d -> d.name()).containsExactly("vx-submariner", "vxlan-tunnel");
        assertThat(onprem1.fdb()).filteredOn(e -> e.device().equals("vxlan-tunnel") && e.mac().equals(MacAddress.ZERO))
                .containsExactly(new FdbEntry("vxlan-tunnel", MacAddress.ZERO, ip("172.31.22.2")));
        assertThat(onprem1.wireGuardDevices()).singleElement().satisfies(device -> {
            assertThat(device.listenPort()).isEqualTo(4501);
            assertThat(device.peers()).singleElement().satisfies(peer -> {
                assertThat(peer.endpoint()).isEqualTo("203.0.113.23:4500");
                assertThat(peer.allowedIps()).containsExactly(net("100.23.0.0/16"), net("10.23.0.0/16"));
                assertThat(peer.persistentKeepaliveSeconds()).isEqualTo(10);
            });
        });
        assertThat(onprem1.rules()).containsOnlyOnce(PolicyRule.lookup(100, 100));
        assertThat(onprem1.ipsecConnections()).isEmpty();
    }

    @Test
    void table100RoutesTheCloudsSubnetsIntoTheDeviceWithTheCniAddressAsSource() {
        List<Route> table100 = submariner(plan, "onprem1", "onprem1-gw").routesIn(100);
        assertThat(table100).filteredOn(r -> r.destination().equals(net("10.23.0.0/16"))).singleElement().satisfies(r -> {
            assertThat(r.nexthops()).containsExactly(Nexthop.direct("submariner"));
            assertThat(r.source()).contains(ip("10.21.0.1"));
            assertThat(r.metric()).isEqualTo(100);
            assertThat(r.protocol()).isEqualTo(RouteProtocol.STATIC);
        });
        assertThat(table100).filteredOn(r -> r.destination().equals(net("10.22.0.0/16"))).singleElement()
                .satisfies(r -> assertThat(r.nexthops()).containsExactly(Nexthop.via(ip("241.31.22.2"), "vxlan-tunnel")));
    }

    /**
     * Upstream's gateway routes table 150 out of the local Endpoint's interface-name, which the
     * WireGuard driver sets to its device (configureRoute): the cloud gateway, all WireGuard, sends
     * every remote cluster into {@code submariner}; an on-premise gateway sends each remote cluster out
     * of its own cable's device, the default interface (a gateway's wan0) for its vxlan peer.
     */
    @Test
    void table150LeadsEachRemoteClusterIntoItsOwnCablesDevice() {
        assertThat(submariner(plan, "cloud", "cloud-gw").routesIn(150)).hasSize(4).allSatisfy(r -> {
            assertThat(r.nexthops()).containsExactly(Nexthop.direct("submariner"));
            assertThat(r.source()).contains(ip("10.23.0.1"));
        });
        List<Route> onprem1 = submariner(plan, "onprem1", "onprem1-gw").routesIn(150);
        assertThat(onprem1).extracting(Route::destination).containsExactly(net("100.22.0.0/16"), net("10.22.0.0/16"),
                net("100.23.0.0/16"), net("10.23.0.0/16"));
        assertThat(onprem1).extracting(r -> r.nexthops().getFirst().device()).containsExactly("wan0", "wan0", "submariner", "submariner");
    }

    @Test
    void aRemoteClusterWithSeveralActiveGatewaysHasItsSubnetsOnTheFirstOnesPeerAndItsEgressAddressesOnEach() {
        ClusterSetPlan wireGuard = Planner.plan(PlannedExamples.withDefaultDriver(PlannedExamples.load("mag-globalnet.yaml"),
                CableDriver.WIREGUARD));
        List<WireGuardPeer> peers = submariner(wireGuard, "cluster1", "gw-1").wireGuardDevices().getFirst().peers();
        assertThat(peers).extracting(WireGuardPeer::remote).containsExactly("cluster2/gw-3", "cluster2/gw-4");
        assertThat(peers.get(0).allowedIps()).startsWith(net("242.254.2.0/24")).hasSize(9);
        assertThat(peers.get(1).allowedIps()).hasSize(8).allSatisfy(p -> assertThat(p.length()).isEqualTo(32))
                .doesNotContain(net("242.254.2.0/24"));
        assertThat(submariner(wireGuard, "cluster1", "gw-1").routesIn(100)).noneMatch(r -> r.metric() == 98);
        assertThat(rules(submariner(wireGuard, "cluster1", "gw-1"), Table.MANGLE, "SUBMARINER-PREROUTING"))
                .containsExactly("-i submariner -j MARK --set-xmark 0x100000/0x100000");
        assertThat(peers.get(1).endpointAddress()).isEqualTo(ip("172.18.0.9"));
    }
}
