package io.periscope.lab.layout;

import io.periscope.lab.Examples;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class LabBatchesBuildWhatThePlanSays {

    private final LabLayout layout = LabLayout.of(Examples.plan(Examples.MAG_GLOBALNET));

    @Test
    void everyVethIsCreatedDirectlyInsideItsTwoNamespaces() {
        List<String> lines = LabBatches.veths(layout).lines().toList();

        assertThat(lines).hasSize(12).allMatch(line -> line.matches("link add \\S+ (address \\S+ )?netns psc-\\S+ type veth peer name \\S+ "
                + "(address \\S+ )?netns psc-\\S+"));
    }

    @Test
    void aGatewayGetsItsAddressesAsSlash32AndTheCniBridgeAndItsRoutesInPlanOrder() {
        HostNamespace gateway = layout.requireHost(HostId.node("cluster1", "gw-1"));
        List<String> lines = LabBatches.hostBatch(gateway).lines().toList();

        assertThat(lines).startsWith("link set lo up", "link add cni0 address 02:04:0a:00:00:01 type bridge");
        assertThat(lines).contains("addr add 172.18.0.6/32 dev eth0", "addr add 10.0.0.1/32 dev cni0", "addr add 172.18.0.6/32 dev wan0",
                "link set wan0 up");
        List<String> routes = lines.stream().filter(l -> l.startsWith("route append ")).toList();
        List<Route> planned = gateway.plan().environment().routes();
        assertThat(routes).hasSameSizeAs(planned);
        // Two routes to 172.18.0.8 (underlay and WAN): appended in plan order, the kernel uses the first, as the plan does.
        assertThat(routes).containsSubsequence("route append 172.18.0.8/32 table 254 metric 0 proto boot dev eth0",
                "route append 172.18.0.8/32 table 254 metric 0 proto boot dev wan0");
    }

    @Test
    void aPodsDefaultRouteGoesOnLinkToItsNodesCniAddress() {
        HostNamespace client = layout.requireHost(HostId.pod("cluster1", "default", "client"));

        assertThat(LabBatches.hostBatch(client).lines()).contains("route append 0.0.0.0/0 table 254 metric 0 proto boot via 10.0.128.1 dev eth0 onlink");
    }

    @Test
    void aSwitchIsOneBridgeWithEveryPortInIt() {
        SwitchNamespace wan = layout.switches().stream().filter(s -> s.segment().equals("wan")).findFirst().orElseThrow();

        assertThat(LabBatches.switchBatch(wan).lines()).containsExactly("link set lo up",
                "link add br0 type bridge stp_state 0 forward_delay 0", "link set gw-1 master br0 up", "link set gw-2 master br0 up",
                "link set gw-3 master br0 up", "link set gw-4 master br0 up", "link set br0 up");
    }

    @Test
    void namespacesAreAddedAndDeletedByName() {
        assertThat(LabBatches.addNamespaces(List.of("psc-a", "psc-b"))).isEqualTo("netns add psc-a\nnetns add psc-b\n");
        assertThat(LabBatches.deleteNamespaces(List.of("psc-a"))).isEqualTo("netns del psc-a\n");
    }

    @Test
    void namespaceWideSysctlsComeBeforeInterfacesAndInterfaceOnesAfter() {
        HostNamespace gateway = layout.requireHost(HostId.node("cluster1", "gw-1"));

        assertThat(SysctlSettings.beforeInterfaces(gateway)).containsEntry("net.ipv4.ip_forward", "1")
                .containsEntry("net.ipv4.conf.default.rp_filter", "0").containsEntry("net.ipv6.conf.default.disable_ipv6", "1");
        assertThat(SysctlSettings.afterInterfaces(gateway)).isEmpty();
        assertThat(SysctlSettings.namesInterface("net.ipv4.conf.eth0.rp_filter")).isTrue();
        assertThat(SysctlSettings.namesInterface("net.ipv4.conf.all.rp_filter")).isFalse();
    }

    @Test
    void everyNodeGetsItsOwnMultipathSeedAndTheSameOneEveryRun() {
        HostNamespace one = layout.requireHost(HostId.node("cluster1", "gw-1"));
        HostNamespace two = layout.requireHost(HostId.node("cluster1", "gw-2"));

        assertThat(SysctlSettings.multipathSeed(one)).isEqualTo(SysctlSettings.multipathSeed(one))
                .isNotEqualTo(SysctlSettings.multipathSeed(two));
        assertThat(Long.parseLong(SysctlSettings.multipathSeed(one).get(SysctlSettings.MULTIPATH_HASH_SEED))).isPositive();
    }

    /**
     * The environment's nexthops, groups, routes and rules in the agent's words for each entry (the
     * lab shares IpBatchRenderer's), with the lab's verbs: a fresh namespace is added to, and routes
     * are appended. A resilient group carries the plan's idle timer, which the kernel would otherwise
     * set to its default.
     */
    @Test
    void theEnvironmentsRoutingIsAddedInTheAgentsWords() {
        Ipv4Address via = Ipv4Address.parse("172.18.0.1");
        DataplanePlan layer = new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(new NexthopObject(1, via, "eth0", false), new NexthopObject(2, Ipv4Address.parse("172.18.0.2"), "eth0", true)),
                List.of(new NexthopGroup(10, List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 3)), true, 64, 30)),
                List.of(new Route(254, Ipv4Prefix.parse("10.1.0.0/16"), RouteType.UNICAST, List.of(),
                                OptionalInt.of(10), Optional.of(Ipv4Address.parse("172.18.0.6")), 0, RouteProtocol.BOOT),
                        Route.unicast(254, Ipv4Prefix.parse("10.2.0.0/16"), List.of(Nexthop.via(via, "eth0"), Nexthop.onlink(via, "wan0")),
                                RouteProtocol.STATIC),
                        Route.unreachable(100, Ipv4Prefix.parse("10.3.0.0/16"), "why")),
                List.of(new PolicyRule(100, Optional.of(Ipv4Prefix.parse("10.0.0.0/8")), Optional.empty(), OptionalInt.of(0x40000),
                        Optional.of("vx-submariner"), 100)),
                Map.of());

        assertThat(LabBatches.routing(layer)).containsExactly(
                "nexthop add id 1 via 172.18.0.1 dev eth0",
                "nexthop add id 2 via 172.18.0.2 dev eth0 onlink",
                "nexthop add id 10 group 1/2,3 type resilient buckets 64 idle_timer 30",
                "route append 10.1.0.0/16 table 254 metric 0 proto boot src 172.18.0.6 nhid 10",
                "route append 10.2.0.0/16 table 254 metric 0 proto static nexthop via 172.18.0.1 dev eth0 weight 1"
                        + " nexthop via 172.18.0.1 dev wan0 onlink weight 1",
                "route append unreachable 10.3.0.0/16 table 100 metric 0 proto static",
                "rule add pref 100 from 10.0.0.0/8 fwmark 0x40000 iif vx-submariner lookup 100");
    }
}
