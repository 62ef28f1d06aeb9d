package io.periscope.lab.rtnetlink;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.lab.Examples;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.HostStep;
import io.periscope.lab.layout.LabBatches;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NamespaceWorkers;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The same steps written by {@code ip -batch} into one fresh namespace and over netlink into another
 * leave the two kernels alike: links, addresses with their scopes, and every route of every table
 * with its type, protocol, scope, metric, source and flags, as {@code ip -d} prints them.
 */
class PodsSetUpOverNetlinkMatchIpBatch {

    private static final Ipv4Address GATEWAY = Ipv4Address.parse("10.1.0.1");

    private TestNamespace byIp;
    private TestNamespace byNetlink;

    @BeforeEach
    void twoNamespacesWithTheSameVeth() {
        byIp = TestNamespace.create();
        byNetlink = TestNamespace.create();
        for (TestNamespace namespace : List.of(byIp, byNetlink)) {
            namespace.run("ip", "link", "add", "eth0", "address", "02:00:0a:01:00:07", "type", "veth", "peer", "name", "peer0",
                    "address", "02:00:0a:01:00:01");
            namespace.run("ip", "link", "set", "peer0", "up");
        }
    }

    @AfterEach
    void removeThem() {
        for (TestNamespace namespace : new TestNamespace[]{byIp, byNetlink}) {
            if (namespace != null) {
                namespace.close();
            }
        }
    }

    @Test
    void everyKindOfStepLeavesTheKernelAsIpLeavesIt() {
        List<HostStep> steps = List.of(
                HostStep.LinkUp.loopback(),
                new HostStep.AddressAdd(Ipv4Address.parse("127.0.0.9"), "lo"),
                new HostStep.AddressAdd(Ipv4Address.parse("10.1.0.7"), "eth0"),
                new HostStep.AddressAdd(Ipv4Address.parse("242.0.0.7"), "eth0"),
                new HostStep.LinkUp("eth0", 1400),
                route(254, "10.1.0.0/24", List.of(Nexthop.direct("eth0")), 0, RouteProtocol.BOOT, Optional.of("10.1.0.7")),
                route(254, "0.0.0.0/0", List.of(Nexthop.via(GATEWAY, "eth0")), 0, RouteProtocol.BOOT, Optional.empty()),
                route(254, "10.2.0.0/16", List.of(Nexthop.onlink(Ipv4Address.parse("172.16.0.1"), "eth0")), 100, RouteProtocol.STATIC,
                        Optional.empty()),
                route(254, "10.2.0.0/16", List.of(Nexthop.onlink(Ipv4Address.parse("172.16.0.2"), "eth0")), 100, RouteProtocol.STATIC,
                        Optional.empty()),
                route(1000, "10.3.0.0/16", List.of(Nexthop.via(GATEWAY, "eth0")), 0, RouteProtocol.STATIC, Optional.empty()),
                route(100, "10.4.0.0/16", List.of(Nexthop.direct("eth0")), 5, RouteProtocol.KERNEL, Optional.empty()),
                new HostStep.RouteAppend(Route.unreachable(100, Ipv4Prefix.parse("10.5.0.0/16"), "a test")),
                new HostStep.RouteAppend(new Route(254, Ipv4Prefix.parse("10.6.0.0/16"), RouteType.BLACKHOLE, List.of(), OptionalInt.empty(),
                        Optional.empty(), 0, RouteProtocol.STATIC)));
        assertThat(HostSetupOverNetlink.writes(steps)).isTrue();

        writeBoth(steps);

        assertAlike();
        assertThat(byNetlink.run("ip", "-d", "route", "show", "table", "all")).contains("unicast 10.2.0.0/16 via 172.16.0.2 dev eth0 table main proto static scope global metric 100 onlink")
                .contains("unicast 10.1.0.0/24 dev eth0 table main proto boot scope link src 10.1.0.7")
                .contains("unicast 10.3.0.0/16 via 10.1.0.1 dev eth0 table 1000 proto static")
                .contains("unreachable 10.5.0.0/16 table 100 proto static");
    }

    /** Every pod of the example, with its own interfaces, written both ways; the nodes keep ip -batch for their bridges and rules. */
    @Test
    void theExamplesPodsComeOutAsIpMakesThem() {
        LabLayout layout = LabLayout.of(Examples.plan(Examples.MAG_GLOBALNET));
        List<HostNamespace> pods = layout.hosts().stream().filter(host -> !host.isNode()).toList();
        assertThat(pods).isNotEmpty().allMatch(pod -> HostSetupOverNetlink.writes(LabBatches.hostSteps(pod)));
        assertThat(layout.nodes()).noneMatch(node -> HostSetupOverNetlink.writes(LabBatches.hostSteps(node)));

        for (HostNamespace pod : pods) {
            for (TestNamespace namespace : List.of(byIp, byNetlink)) {
                namespace.run("ip", "addr", "flush", "dev", "eth0");
                namespace.run("ip", "route", "flush", "table", "all");
            }
            writeBoth(LabBatches.hostSteps(pod));
            assertAlike();
        }
    }

    @Test
    void aRefusedStepIsReportedInIpsWordsAndStopsTheRest() {
        List<HostStep> steps = List.of(new HostStep.AddressAdd(Ipv4Address.parse("10.1.0.7"), "eth0"),
                new HostStep.AddressAdd(Ipv4Address.parse("10.1.0.7"), "eth0"), new HostStep.LinkUp("eth0", 1500));

        assertThatThrownBy(() -> inside(byNetlink, steps)).isInstanceOf(RtnetlinkException.class)
                .hasMessageStartingWith("RTNETLINK answers: File exists").hasMessageEndingWith("(addr add 10.1.0.7/32 dev eth0)");
        assertThat(byNetlink.run("ip", "-o", "link", "show", "eth0")).doesNotContain(",UP");
    }

    @Test
    void aMissingInterfaceIsNamed() {
        assertThatThrownBy(() -> inside(byNetlink, List.of(new HostStep.LinkUp("eth9", 1500)))).isInstanceOf(RtnetlinkException.class)
                .hasMessage("Cannot find device \"eth9\" (link set eth9 up)");
    }

    @Test
    void aRouteTheKernelRefusesCarriesTheKernelsReason() {
        List<HostStep> steps = List.of(route(254, "10.9.0.0/16", List.of(Nexthop.via(Ipv4Address.parse("192.0.2.1"), "eth0")), 0,
                RouteProtocol.BOOT, Optional.empty()));

        assertThatThrownBy(() -> inside(byNetlink, steps)).isInstanceOf(RtnetlinkException.class)
                .hasMessageStartingWith("RTNETLINK answers: ").hasMessageContaining("(route append 10.9.0.0/16 table 254 metric 0 proto boot via 192.0.2.1 dev eth0)");
    }

    private void writeBoth(List<HostStep> steps) {
        byIp.runWithInput(steps.stream().map(step -> step.ipBatchLine() + "\n").collect(Collectors.joining()), "ip", "-batch", "-");
        inside(byNetlink, steps);
    }

    private void assertAlike() {
        for (String[] show : List.of(new String[]{"ip", "-d", "link", "show"}, new String[]{"ip", "-d", "-4", "addr", "show"},
                new String[]{"ip", "-d", "route", "show", "table", "all"})) {
            assertThat(byNetlink.run(show)).as(String.join(" ", show)).isEqualTo(byIp.run(show));
        }
    }

    private static void inside(TestNamespace namespace, List<HostStep> steps) {
        NamespaceWorkers.inEach(List.of(namespace.name()), name -> name, 1, name -> {
            HostSetupOverNetlink.write(steps);
            return name;
        });
    }

    private static HostStep route(int table, String destination, List<Nexthop> nexthops, int metric, RouteProtocol protocol,
                                  Optional<String> source) {
        return new HostStep.RouteAppend(new Route(table, Ipv4Prefix.parse(destination), RouteType.UNICAST, nexthops, OptionalInt.empty(),
                source.map(Ipv4Address::parse), metric, protocol));
    }
}
