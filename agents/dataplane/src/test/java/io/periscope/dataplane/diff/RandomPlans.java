package io.periscope.dataplane.diff;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.Neighbour;
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
import java.util.Comparator;
import java.util.HashSet;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Seeded random plans over every record type, drawn from small pools so that two plans share
 * most names, ids and keys and differ in their attributes: that is what exercises replacements,
 * recreations and the ordering of a diff. Every plan is consistent (jumps go to declared chains,
 * routes and nexthops use devices and ids of the same plan) and can be programmed into a namespace
 * that has {@code eth0} with 172.18.0.10/16: gateways lie in the subnet of their device, VNIs of
 * different devices differ, an ipset keeps its type.
 */
public final class RandomPlans {

    private static final List<String> DESTINATIONS = List.of("10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16", "10.4.0.0/16",
            "242.254.1.10/32", "242.254.1.11/32", "0.0.0.0/0");
    private static final List<MacAddress> MACS = List.of(MacAddress.parse("02:00:00:00:00:01"), MacAddress.parse("02:00:00:00:00:02"),
            MacAddress.parse("02:00:00:00:00:03"));
    private static final List<String> SYSCTLS = List.of("net.ipv4.ip_forward", "net.ipv4.conf.all.rp_filter", "net.ipv4.fib_multipath_hash_policy");
    private static final Map<String, IpSetType> IPSETS = Map.of("SM-GN-A", IpSetType.HASH_NET, "SM-GN-B", IpSetType.HASH_IP,
            "SUBMARINER-C", IpSetType.HASH_NET);
    private static final List<String> CHAINS = List.of("SUBMARINER-A", "SUBMARINER-B", "SM-GN-C");

    private final Random random;

    private RandomPlans(Random random) {
        this.random = random;
    }

    /** The {@code index}-th plan of the sequence seeded with {@code seed}. */
    public static DataplanePlan plan(long seed, int index) {
        return new RandomPlans(new Random(seed * 7919 + index)).plan();
    }

    private DataplanePlan plan() {
        List<VxlanDevice> devices = new ArrayList<>();
        if (chance(0.8)) {
            devices.add(vxlan("vx-a", 240, List.of(100, 101), List.of(4800, 4801)));
        }
        if (chance(0.6)) {
            devices.add(vxlan("vx-b", 241, List.of(200, 201), List.of(4500)));
        }
        List<String> usable = new ArrayList<>(List.of("eth0"));
        devices.forEach(d -> usable.add(d.name()));

        List<NexthopObject> objects = new ArrayList<>();
        List<NexthopGroup> groups = new ArrayList<>();
        for (int id = 1; id <= 6; id++) {
            if (chance(0.3)) {
                continue;
            }
            if (id <= 3 || objects.isEmpty() || chance(0.4)) {
                String device = pick(usable);
                objects.add(new NexthopObject(id, gatewayOn(device), device, chance(0.2)));
            } else {
                List<NexthopGroup.Member> members = new ArrayList<>();
                for (NexthopObject object : objects) {
                    if (members.isEmpty() || chance(0.5)) {
                        members.add(new NexthopGroup.Member(object.id(), 1 + random.nextInt(3)));
                    }
                }
                boolean resilient = chance(0.4);
                groups.add(resilient ? new NexthopGroup(id, members, true, pick(List.of(32, 64)), pick(List.of(30, 120)))
                        : new NexthopGroup(id, members, false, 0));
            }
        }
        List<Integer> ids = new ArrayList<>();
        objects.forEach(o -> ids.add(o.id()));
        groups.forEach(g -> ids.add(g.id()));

        Map<Route.RouteKey, Route> routes = new LinkedHashMap<>();
        for (int i = random.nextInt(7); i > 0; i--) {
            Route route = route(usable, ids);
            routes.putIfAbsent(route.key(), route);
        }

        List<PolicyRule> rules = new ArrayList<>();
        if (chance(0.6)) {
            rules.add(PolicyRule.lookup(100, 100));
        }
        if (chance(0.4)) {
            rules.add(new PolicyRule(200, Optional.of(Ipv4Prefix.parse("10.0.0.0/16")), Optional.of(Ipv4Prefix.parse(pick(DESTINATIONS.subList(0, 4)))),
                    chance(0.5) ? OptionalInt.of(0xc0000) : OptionalInt.empty(), Optional.empty(), 100));
        }
        if (chance(0.3)) {
            rules.add(new PolicyRule(300, Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.of("lo"), 254));
        }

        Map<List<Object>, Neighbour> neighbours = new LinkedHashMap<>();
        List<FdbEntry> fdb = new ArrayList<>();
        for (VxlanDevice device : devices) {
            for (int i = random.nextInt(3); i > 0; i--) {
                Neighbour neighbour = new Neighbour(device.name(), gatewayOn(device.name()), pick(MACS));
                neighbours.putIfAbsent(List.of(neighbour.device(), neighbour.address()), neighbour);
                FdbEntry entry = new FdbEntry(device.name(), chance(0.6) ? MacAddress.ZERO : pick(MACS),
                        Ipv4Address.parse("172.18.0." + (11 + random.nextInt(3))));
                // A unicast MAC has one destination per device.
                if (entry.mac().equals(MacAddress.ZERO) || fdb.stream().noneMatch(e -> e.device().equals(entry.device()) && e.mac().equals(entry.mac()))) {
                    fdb.add(entry);
                }
            }
        }

        List<IpSet> ipsets = new ArrayList<>();
        IPSETS.forEach((name, type) -> {
            if (chance(0.6)) {
                List<Ipv4Prefix> members = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    members.add(type == IpSetType.HASH_IP || chance(0.5)
                            ? Ipv4Prefix.parse("10.0.1." + (1 + random.nextInt(6)) + "/32")
                            : Ipv4Prefix.parse("10.0." + (2 + random.nextInt(3)) + ".0/24"));
                }
                ipsets.add(new IpSet(name, type, members));
            }
        });

        Map<String, String> sysctls = new TreeMap<>();
        for (String key : SYSCTLS) {
            if (chance(0.5)) {
                sysctls.put(key, String.valueOf(random.nextInt(2)));
            }
        }
        ipsets.sort(Comparator.comparing(IpSet::name));
        return new DataplanePlan(netfilter(ipsets), ipsets, devices, fdb, List.copyOf(neighbours.values()), objects, groups,
                List.copyOf(routes.values()), rules, sysctls);
    }

    private VxlanDevice vxlan(String name, int firstOctet, List<Integer> vnis, List<Integer> ports) {
        // Bound to the underlay as Periscope's devices once were, or unbound as upstream's are.
        boolean bound = random.nextBoolean();
        return new VxlanDevice(name, pick(vnis), pick(ports), bound ? Optional.of(Ipv4Address.parse("172.18.0.10")) : Optional.empty(),
                bound ? Optional.of("eth0") : Optional.empty(), pick(List.of(1400, 1450)),
                Ipv4Address.parse(firstOctet + ".0.0." + (1 + random.nextInt(2))), Ipv4Prefix.parse(firstOctet + ".0.0.0/8"), random.nextBoolean());
    }

    /** An address the device reaches directly: in its connected subnet. */
    private Ipv4Address gatewayOn(String device) {
        String subnet = switch (device) {
            case "vx-a" -> "240.0.0.";
            case "vx-b" -> "241.0.0.";
            default -> "172.18.0.";
        };
        return Ipv4Address.parse(subnet + (20 + random.nextInt(4)));
    }

    private Route route(List<String> usable, List<Integer> ids) {
        int table = pick(List.of(100, 254));
        Ipv4Prefix destination = Ipv4Prefix.parse(pick(DESTINATIONS));
        int metric = pick(List.of(0, 98, 100));
        Optional<Ipv4Address> source = chance(0.3) ? Optional.of(Ipv4Address.parse("172.18.0.10")) : Optional.empty();
        double kind = random.nextDouble();
        if (kind < 0.1) {
            return new Route(table, destination, pick(List.of(RouteType.BLACKHOLE, RouteType.UNREACHABLE)), List.of(), OptionalInt.empty(),
                    Optional.empty(), metric, RouteProtocol.STATIC);
        }
        if (kind < 0.35 && !ids.isEmpty()) {
            return new Route(table, destination, RouteType.UNICAST, List.of(), OptionalInt.of(pick(ids)), source, metric, RouteProtocol.STATIC);
        }
        List<Nexthop> nexthops = new ArrayList<>();
        Set<Ipv4Address> gateways = new HashSet<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            String device = pick(usable);
            Ipv4Address gateway = gatewayOn(device);
            if (gateways.add(gateway)) {
                nexthops.add(new Nexthop(Optional.of(gateway), device, 1 + random.nextInt(3), chance(0.2)));
            }
        }
        return new Route(table, destination, RouteType.UNICAST, nexthops, OptionalInt.empty(), source, metric, RouteProtocol.STATIC);
    }

    private List<NetfilterTable> netfilter(List<IpSet> ipsets) {
        List<NetfilterTable> tables = new ArrayList<>();
        for (Table table : Table.values()) {
            if (chance(0.2)) {
                continue;
            }
            List<String> owned = CHAINS.stream().filter(c -> chance(0.6)).toList();
            List<Chain> chains = new ArrayList<>();
            for (String builtin : table.builtinChains()) {
                List<Rule> rules = new ArrayList<>();
                for (String chain : owned) {
                    if (chance(0.5)) {
                        rules.add(Rule.of(Target.jump(chain)));
                    }
                }
                if (chance(0.3)) {
                    rules.add(rule(table, List.of(), ipsets, false));
                }
                if (!rules.isEmpty() || chance(0.2)) {
                    chains.add(new Chain(builtin, rules));
                }
            }
            for (String chain : owned) {
                List<Rule> rules = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    rules.add(rule(table, owned.stream().filter(c -> c.compareTo(chain) > 0).toList(), ipsets, true));
                }
                chains.add(new Chain(chain, rules));
            }
            if (!chains.isEmpty()) {
                tables.add(new NetfilterTable(table, chains));
            }
        }
        return tables;
    }

    /**
     * A rule the kernel accepts wherever it sits in {@code table}: no {@code -i} in built-in chains
     * (OUTPUT and POSTROUTING refuse it), no NAT targets (each is valid in some hooks only); jumps
     * only to {@code jumpable} (declared, and later in name order, so no loops).
     */
    private Rule rule(Table table, List<String> jumpable, List<IpSet> ipsets, boolean inUserChain) {
        List<Match> matches = new ArrayList<>();
        if (chance(0.4)) {
            matches.add(new Match.Source(Ipv4Prefix.parse(pick(DESTINATIONS.subList(0, 4))), chance(0.2)));
        }
        if (inUserChain && chance(0.3)) {
            matches.add(new Match.InInterface(pick(List.of("eth0", "vx-a")), chance(0.2)));
        }
        if (chance(0.3)) {
            matches.add(new Match.MarkIs(0xc0000, pick(List.of(0xc0000, 0xffffffff)), chance(0.2)));
        }
        if (chance(0.2)) {
            matches.add(new Match.ConnState(chance(0.5) ? Set.of(CtState.DNAT) : EnumSet.of(CtState.RELATED, CtState.ESTABLISHED), false));
        }
        if (chance(0.2) && !ipsets.isEmpty()) {
            matches.add(new Match.SetMatch(pick(ipsets).name(), chance(0.5), chance(0.2)));
        }
        if (chance(0.2)) {
            matches.add(new Match.ProtocolIs(Protocol.UDP));
            // No port: the bare -m udp upstream's packet filter writes after -p udp.
            int port = pick(List.of(4500, 4800, 0));
            matches.add(port == 0 ? new Match.ProtocolModule() : new Match.DestinationPort(port));
        }
        if (chance(0.1)) {
            matches.add(new Match.RandomProbability(pick(List.of(0.5, 1.0 / 3))));
        }
        Target target = switch (table) {
            case RAW -> pick(List.of(new Target.NoTrack(), new Target.Accept()));
            case MANGLE -> pick(List.of(new Target.SetMark(0x100000, 0x100000), new Target.SetConnMark(0x1, 0xffffffff), new Target.Return()));
            case NAT -> pick(List.of(new Target.Accept(), new Target.Return()));
            case FILTER -> pick(List.of(new Target.Accept(), new Target.Drop(), new Target.Return()));
        };
        if (!jumpable.isEmpty() && chance(0.3)) {
            target = Target.jump(pick(jumpable));
        }
        Rule rule = new Rule(matches, target, Optional.empty());
        return chance(0.15) ? rule.withComment(pick(List.of("default/egress", "plain", "a b"))) : rule;
    }

    private boolean chance(double p) {
        return random.nextDouble() < p;
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
