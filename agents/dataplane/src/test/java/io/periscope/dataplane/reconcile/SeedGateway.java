package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Seed 004's gateway GW-2 with Globalnet and multiple active gateways, as a plan: the two VXLAN
 * devices with multi-endpoint (all-zero) FDB entries, table 100 multipath routes to the remote gateways'
 * 241.x addresses, nexthop objects with a plain and a resilient group, the {@code ip rule} for
 * table 100, metric-98 /32 routes to the remote gateways' egress IPs, Globalnet's nat chains with
 * the {@code 0xc0000} mark and SNAT range, the DNAT-state SNAT, the FORWARD accept, an ipset, the
 * raw notrack for the tunnel ports, the MSS clamp, and sysctls. Every match and target kind of the
 * model appears at least once.
 */
final class SeedGateway {

    static final String POD_CIDR = "10.0.0.0/16";
    static final String REMOTE_POD_CIDR = "10.1.0.0/16";
    static final String EGRESS_IPSET = "SM-GN-PODS-1A2B3C4D";
    /** The remote active gateways' endpoint addresses, one all-zero {@code vxlan-tunnel} FDB entry each. */
    static final List<String> REMOTE_GATEWAYS = List.of("198.51.100.4", "198.51.100.9");

    private SeedGateway() {
    }

    /** The underlay, WAN and CNI interfaces a gateway node has before Submariner runs. */
    static void prepare(TestNamespace namespace) {
        namespace.veth("eth0", "172.18.0.10/16");
        namespace.veth("wan0", "198.51.100.10/24");
        namespace.veth("weave", "10.0.0.1/16");
    }

    static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    static Ipv4Prefix cidr(String text) {
        return Ipv4Prefix.parse(text);
    }

    static DataplanePlan plan() {
        VxlanDevice vxSubmariner = new VxlanDevice("vx-submariner", 100, 4800, Optional.of(ip("172.18.0.10")), Optional.of("eth0"), 1450, ip("240.18.0.10"),
                cidr("240.0.0.0/8"), false);
        // Two remote active gateways (seed 004): vxlan-tunnel learns, so frames go to the one that owns the MAC.
        VxlanDevice vxlanTunnel = new VxlanDevice("vxlan-tunnel", 1000, 4500, Optional.of(ip("198.51.100.10")), Optional.of("wan0"), 1450, ip("241.18.0.10"),
                cidr("241.0.0.0/8"), true);

        List<FdbEntry> fdb = new ArrayList<>();
        for (String worker : List.of("172.18.0.11", "172.18.0.12")) {
            fdb.add(new FdbEntry("vx-submariner", MacAddress.ZERO, ip(worker)));
        }
        // As upstream: all-zero entries only, and ARP finds the peers' MACs.
        for (String remote : REMOTE_GATEWAYS) {
            fdb.add(new FdbEntry("vxlan-tunnel", MacAddress.ZERO, ip(remote)));
        }

        List<NexthopObject> nexthops = List.of(new NexthopObject(1, ip("241.18.0.4"), "vxlan-tunnel", false),
                new NexthopObject(2, ip("241.18.0.9"), "vxlan-tunnel", false));
        List<NexthopGroup> groups = List.of(
                new NexthopGroup(3, List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 1)), false, 0),
                new NexthopGroup(4, List.of(new NexthopGroup.Member(1, 1), new NexthopGroup.Member(2, 2)), true, 64));

        List<Route> routes = new ArrayList<>();
        Optional<Ipv4Address> cniSource = Optional.of(ip("10.0.0.1"));
        routes.add(new Route(100, cidr("100.2.0.0/16"), RouteType.UNICAST,
                List.of(Nexthop.via(ip("241.18.0.4"), "vxlan-tunnel"), Nexthop.via(ip("241.18.0.9"), "vxlan-tunnel")),
                OptionalInt.empty(), cniSource, 100, RouteProtocol.STATIC));
        routes.add(new Route(100, cidr("242.254.2.0/24"), RouteType.UNICAST, List.of(), OptionalInt.of(3), cniSource, 100, RouteProtocol.STATIC));
        routes.add(new Route(100, cidr("10.3.0.0/16"), RouteType.UNICAST, List.of(), OptionalInt.of(4), cniSource, 100, RouteProtocol.STATIC));
        for (int last = 10; last <= 16; last++) {
            routes.add(Route.unicast(100, cidr("242.254.1." + last + "/32"), List.of(Nexthop.via(ip("241.18.0.8"), "vxlan-tunnel")),
                    RouteProtocol.STATIC).withMetric(98));
        }
        routes.add(Route.unicast(100, cidr("242.254.3.0/24"), List.of(Nexthop.onlink(ip("198.51.100.1"), "vxlan-tunnel")), RouteProtocol.STATIC));
        routes.add(new Route(100, cidr("242.254.9.0/24"), RouteType.UNREACHABLE, List.of(), OptionalInt.empty(), Optional.empty(), 0,
                RouteProtocol.STATIC));
        // A worker-style route in the main table, Periscope's because it only uses vx-submariner.
        routes.add(Route.unicast(Route.MAIN_TABLE, cidr(REMOTE_POD_CIDR),
                List.of(Nexthop.via(ip("240.18.0.6"), "vx-submariner"), Nexthop.via(ip("240.18.0.8"), "vx-submariner")), RouteProtocol.STATIC));

        List<PolicyRule> rules = List.of(PolicyRule.lookup(100, 100),
                new PolicyRule(150, Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.of("lo"), 150),
                new PolicyRule(200, Optional.of(cidr(POD_CIDR)), Optional.of(cidr("242.254.0.0/16")), OptionalInt.of(0xc0000),
                        Optional.empty(), 100));

        IpSet egressPods = new IpSet(EGRESS_IPSET, IpSetType.HASH_NET, List.of(cidr("10.0.1.5/32"), cidr("10.0.2.0/24")));
        IpSet localIps = new IpSet("SUBMARINER-LOCALIPS", IpSetType.HASH_IP, List.of(cidr("10.0.0.1/32"), cidr("172.18.0.10/32")));

        return new DataplanePlan(netfilter(), List.of(egressPods, localIps), List.of(vxSubmariner, vxlanTunnel), fdb, List.of(),
                nexthops, groups, routes, rules,
                Map.of("net.ipv4.ip_forward", "1", "net.ipv4.fib_multipath_hash_policy", "1",
                        "net.ipv4.conf.all.ignore_routes_with_linkdown", "1", "net.ipv4.conf.vx-submariner.rp_filter", "2"));
    }

    static List<NetfilterTable> netfilter() {
        Match globalnetMark = new Match.MarkIs(0xc0000, 0xc0000, false);
        Match fromRemote = new Match.MarkIs(0x100000, 0x100000, false);
        NetfilterTable nat = new NetfilterTable(Table.NAT, List.of(
                new Chain("PREROUTING", List.of(Rule.of(Target.jump("SUBMARINER-GN-INGRESS")))),
                new Chain("POSTROUTING", List.of(Rule.of(Target.jump("SUBMARINER-POSTROUTING")))),
                new Chain("SUBMARINER-POSTROUTING", List.of(
                        Rule.of(Target.jump("SUBMARINER-GN-EGRESS")),
                        // Seed 004 step 3b: SNAT to the CNI address only for DNATed service traffic.
                        Rule.of(new Target.Snat(Ipv4Range.single(ip("10.0.0.1"))), new Match.OutInterface("weave"), fromRemote,
                                new Match.ConnState(Set.of(CtState.DNAT), false)),
                        // The seed's own form: nf_tables accepts -i in a chain called from POSTROUTING.
                        Rule.of(new Target.Snat(Ipv4Range.single(ip("10.2.192.0"))), new Match.InInterface("vxlan-tunnel"),
                                new Match.OutInterface("weave"), new Match.ConnState(Set.of(CtState.DNAT), false)),
                        Rule.of(new Target.Masquerade(), new Match.Source(cidr("172.18.0.0/16")), new Match.OutInterface("wan0"),
                                new Match.DestinationIsLocal(true)))),
                new Chain("SUBMARINER-GN-INGRESS", List.of(new Rule(List.of(new Match.Destination(cidr("242.254.1.30/32"))),
                        new Target.Dnat(ip("10.0.1.5"), OptionalInt.empty()), Optional.of("default/nginx-0")),
                        new Rule(List.of(new Match.Destination(cidr("242.254.1.31/32")), new Match.ProtocolIs(Protocol.TCP),
                                new Match.DestinationPort(80)), new Target.Dnat(ip("10.0.1.6"), OptionalInt.of(8080)), Optional.of("default/web:http")))),
                new Chain("SUBMARINER-GN-EGRESS", List.of(Rule.of(Target.jump("SUBMARINER-GN-MARK")), Rule.of(Target.jump("SM-GN-EGRESS-PODS")),
                        Rule.of(Target.jump("SM-GN-EGRESS-NS")), Rule.of(Target.jump("SM-GN-EGRESS-CLUSTER")))),
                new Chain("SUBMARINER-GN-MARK", List.of(Rule.of(new Target.SetMark(0xc0000, 0xc0000), new Match.Destination(cidr("242.254.2.0/24"))))),
                new Chain("SM-GN-EGRESS-PODS", List.of(new Rule(List.of(globalnetMark, new Match.SetMatch(EGRESS_IPSET, true, false)),
                        new Target.Snat(Ipv4Range.single(ip("242.254.1.20"))), Optional.of("default/egress")))),
                Chain.empty("SM-GN-EGRESS-NS"),
                new Chain("SM-GN-EGRESS-CLUSTER", List.of(Rule.of(new Target.Snat(Ipv4Range.parse("242.254.1.1-242.254.1.8")),
                        new Match.Source(cidr(POD_CIDR)), globalnetMark)))));
        NetfilterTable filter = new NetfilterTable(Table.FILTER, List.of(
                new Chain("INPUT", List.of(Rule.of(Target.jump("SUBMARINER-INPUT")))),
                new Chain("FORWARD", List.of(Rule.of(Target.jump("SUBMARINER-FWD-MSSCLAMP")), Rule.of(Target.jump("SUBMARINER-FORWARD")),
                        Rule.of(Target.accept(), new Match.InInterface("vxlan-tunnel"), new Match.Destination(cidr(POD_CIDR))))),
                new Chain("SUBMARINER-INPUT", List.of(
                        Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4500)),
                        Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4800)),
                        Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.ICMP)))),
                new Chain("SUBMARINER-FORWARD", List.of(
                        Rule.of(Target.accept(), new Match.ConnState(Set.of(CtState.RELATED, CtState.ESTABLISHED), false)),
                        Rule.of(new Target.Return(), new Match.SetMatch("SUBMARINER-LOCALIPS", false, true), new Match.InInterface("eth0", true)),
                        Rule.of(new Target.Drop(), new Match.Source(cidr("10.9.0.0/16"), true), new Match.Destination(cidr("10.8.0.0/16"), true),
                                new Match.OutInterface("eth0", true)))),
                new Chain("SUBMARINER-FWD-MSSCLAMP", List.of(
                        Rule.of(new Target.ClampMssToPmtu(), new Match.Destination(cidr("100.2.0.0/16")), new Match.ProtocolIs(Protocol.TCP),
                                new Match.TcpSyn()),
                        Rule.of(new Target.ClampMssToPmtu(), new Match.Source(cidr("100.2.0.0/16")), new Match.ProtocolIs(Protocol.TCP),
                                new Match.SourcePort(443), new Match.TcpSyn())))));
        NetfilterTable raw = new NetfilterTable(Table.RAW, List.of(
                new Chain("PREROUTING", List.of(Rule.of(Target.jump("SUBMARINER-RAW")))),
                new Chain("OUTPUT", List.of(Rule.of(Target.jump("SUBMARINER-RAW")))),
                new Chain("SUBMARINER-RAW", List.of(
                        Rule.of(new Target.NoTrack(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4500)),
                        Rule.of(new Target.NoTrack(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4800))))));
        NetfilterTable mangle = new NetfilterTable(Table.MANGLE, List.of(
                new Chain("PREROUTING", List.of(Rule.of(Target.jump("SUBMARINER-PREROUTING")))),
                new Chain("SUBMARINER-PREROUTING", List.of(
                        Rule.of(new Target.SetMark(0x100000, 0x100000), new Match.InInterface("vxlan-tunnel")),
                        Rule.of(new Target.SetConnMark(0x1, 0xffffffff), new Match.ConnMarkIs(0x10, 0xff)),
                        Rule.of(new Target.SetMark(0x2, 0xffffffff), new Match.MarkIs(0x4000, 0xffffffff, true),
                                new Match.RandomProbability(0.25)).withComment("sample a quarter")))));
        return List.of(nat, filter, raw, mangle);
    }
}
