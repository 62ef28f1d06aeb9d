package io.periscope.plan;

import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Kernel state for one network namespace, as records: what an agent programs and what it reads
 * back. The same type describes the desired state (from the planner) and the actual state (parsed
 * from {@code iptables-save}, {@code ipset save} and {@code ip -j}), so a diff between two of them
 * is what a level-driven reconcile applies.
 *
 * <p>{@code wireGuardDevices} and {@code ipsecConnections} are the encrypted cables: a WireGuard device
 * with its peers, and the Libreswan connections whose XFRM policies encrypt traffic between subnets.
 */
public record DataplanePlan(
        List<NetfilterTable> netfilter,
        List<IpSet> ipsets,
        List<VxlanDevice> vxlanDevices,
        List<FdbEntry> fdb,
        List<Neighbour> neighbours,
        List<NexthopObject> nexthops,
        List<NexthopGroup> nexthopGroups,
        List<Route> routes,
        List<PolicyRule> rules,
        Map<String, String> sysctls,
        List<WireGuardDevice> wireGuardDevices,
        List<IpsecConnection> ipsecConnections) {

    public static final DataplanePlan EMPTY = new DataplanePlan(List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of(), List.of(), List.of(), List.of(), Map.of());

    /** A plan without encrypted cables (what the kernel readers see, and hand-built plans). */
    public DataplanePlan(List<NetfilterTable> netfilter, List<IpSet> ipsets, List<VxlanDevice> vxlanDevices, List<FdbEntry> fdb,
                         List<Neighbour> neighbours, List<NexthopObject> nexthops, List<NexthopGroup> nexthopGroups,
                         List<Route> routes, List<PolicyRule> rules, Map<String, String> sysctls) {
        this(netfilter, ipsets, vxlanDevices, fdb, neighbours, nexthops, nexthopGroups, routes, rules, sysctls, List.of(), List.of());
    }

    public DataplanePlan {
        netfilter = List.copyOf(netfilter);
        ipsets = List.copyOf(ipsets);
        vxlanDevices = List.copyOf(vxlanDevices);
        fdb = List.copyOf(fdb);
        neighbours = List.copyOf(neighbours);
        nexthops = List.copyOf(nexthops);
        nexthopGroups = List.copyOf(nexthopGroups);
        routes = List.copyOf(routes);
        rules = List.copyOf(rules);
        // Sorted and kept sorted: Map.copyOf would iterate in a per-JVM random order, and the plan
        // (its JSON, the agents' sysctl command) must read the same on every run.
        sysctls = java.util.Collections.unmodifiableMap(new TreeMap<>(sysctls));
        wireGuardDevices = List.copyOf(wireGuardDevices);
        ipsecConnections = List.copyOf(ipsecConnections);
    }

    // Loops, not streams: the simulator asks these of every host's plan, and merge asks table three
    // times for each kind of table of each host.
    public Optional<NetfilterTable> table(Table table) {
        for (NetfilterTable t : netfilter) {
            if (t.table() == table) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    public Optional<IpSet> ipset(String name) {
        for (IpSet s : ipsets) {
            if (s.name().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    public List<Route> routesIn(int tableId) {
        return routes.stream().filter(r -> r.table() == tableId).toList();
    }

    public boolean isEmpty() {
        return equals(EMPTY);
    }

    /**
     * Everything of both plans, as one kernel would hold them when {@code other} is programmed on top
     * of this one: in a built-in chain {@code other}'s first rules come before this plan's rules,
     * because Periscope's agents insert them at the top, and {@code other}'s last rules after them,
     * because the agents append those ({@link io.periscope.plan.netfilter.HookPosition}); anything
     * else is this plan's, then other's.
     */
    public DataplanePlan merge(DataplanePlan other) {
        List<NetfilterTable> tables = new ArrayList<>();
        for (Table t : Table.values()) {
            Map<String, Chain> chains = new LinkedHashMap<>();
            other.table(t).ifPresent(nt -> nt.chains().stream().filter(c -> t.isBuiltin(c.name()))
                    .forEach(c -> chains.put(c.name(), new Chain(c.name(), c.rules()))));
            table(t).ifPresent(nt -> nt.chains().forEach(c -> chains.merge(c.name(), c, DataplanePlan::below)));
            other.table(t).ifPresent(nt -> nt.chains().forEach(c -> chains.merge(c.name(),
                    t.isBuiltin(c.name()) ? new Chain(c.name(), List.of(), c.last()) : c, DataplanePlan::below)));
            if (!chains.isEmpty()) {
                tables.add(new NetfilterTable(t, List.copyOf(chains.values())));
            }
        }
        Map<String, String> allSysctls = new TreeMap<>(sysctls);
        allSysctls.putAll(other.sysctls);
        return new DataplanePlan(tables, concat(ipsets, other.ipsets), concat(vxlanDevices, other.vxlanDevices),
                concat(fdb, other.fdb), concat(neighbours, other.neighbours), concat(nexthops, other.nexthops),
                concat(nexthopGroups, other.nexthopGroups), concat(routes, other.routes), concat(rules, other.rules), allSysctls,
                concat(wireGuardDevices, other.wireGuardDevices), concat(ipsecConnections, other.ipsecConnections));
    }

    /**
     * One chain named in both plans (each adds its rules): {@code lower}'s first rules after
     * {@code upper}'s, and its last rules after {@code upper}'s last ones.
     */
    private static Chain below(Chain upper, Chain lower) {
        return new Chain(upper.name(), concat(upper.rules(), lower.rules()), concat(upper.last(), lower.last()));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        if (b.isEmpty()) {
            return a;
        }
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
