package io.periscope.planner;

import io.periscope.plan.DataplanePlan;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.HookPosition;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects one host's plan while the planners add to it; {@link #build()} freezes it. Chains keep
 * the order in which they are first named, which is the order they render and print in.
 */
final class PlanBuilder {

    private final Map<Table, Map<String, List<Rule>>> tables = new EnumMap<>(Table.class);
    /** Rules of built-in chains placed {@link HookPosition#LAST}, by table and chain. */
    private final Map<Table, Map<String, List<Rule>>> lastRules = new EnumMap<>(Table.class);
    private final List<IpSet> ipsets = new ArrayList<>();
    private final List<VxlanDevice> vxlans = new ArrayList<>();
    private final List<FdbEntry> fdb = new ArrayList<>();
    private final List<Neighbour> neighbours = new ArrayList<>();
    private final List<NexthopObject> nexthops = new ArrayList<>();
    private final List<NexthopGroup> groups = new ArrayList<>();
    private final List<Route> routes = new ArrayList<>();
    private final List<PolicyRule> rules = new ArrayList<>();
    private final Map<String, String> sysctls = new TreeMap<>();
    private final List<WireGuardDevice> wireGuardDevices = new ArrayList<>();
    private final List<IpsecConnection> ipsecConnections = new ArrayList<>();

    /** Declares a chain (so it exists even when empty) and returns its rule list to append to. */
    List<Rule> chain(Table table, String name) {
        return tables.computeIfAbsent(table, t -> new LinkedHashMap<>()).computeIfAbsent(name, n -> new ArrayList<>());
    }

    PlanBuilder rule(Table table, String chain, Rule rule) {
        chain(table, chain).add(rule);
        return this;
    }

    /**
     * A rule of a built-in chain at {@code position}: {@link HookPosition#FIRST} is {@link #rule},
     * {@link HookPosition#LAST} goes below everyone else's rules, as upstream appends it.
     */
    PlanBuilder rule(Table table, String chain, HookPosition position, Rule rule) {
        if (!table.isBuiltin(chain)) {
            throw new IllegalArgumentException(chain + " is not a built-in chain of " + table.iptablesName()
                    + "; only rules of built-in chains have a position");
        }
        chain(table, chain);
        switch (position) {
            case FIRST -> rule(table, chain, rule);
            case LAST -> lastRules.computeIfAbsent(table, t -> new LinkedHashMap<>()).computeIfAbsent(chain, n -> new ArrayList<>()).add(rule);
        }
        return this;
    }

    PlanBuilder ipset(IpSet set) {
        ipsets.add(set);
        return this;
    }

    PlanBuilder vxlan(VxlanDevice device) {
        vxlans.add(device);
        return this;
    }

    PlanBuilder fdb(FdbEntry entry) {
        fdb.add(entry);
        return this;
    }

    PlanBuilder neighbour(Neighbour entry) {
        neighbours.add(entry);
        return this;
    }

    PlanBuilder nexthop(NexthopObject object) {
        nexthops.add(object);
        return this;
    }

    PlanBuilder group(NexthopGroup group) {
        groups.add(group);
        return this;
    }

    PlanBuilder route(Route route) {
        routes.add(route);
        return this;
    }

    PlanBuilder routes(List<Route> more) {
        routes.addAll(more);
        return this;
    }

    PlanBuilder policyRule(PolicyRule rule) {
        rules.add(rule);
        return this;
    }

    PlanBuilder sysctl(String key, String value) {
        sysctls.put(key, value);
        return this;
    }

    PlanBuilder wireGuard(WireGuardDevice device) {
        wireGuardDevices.add(device);
        return this;
    }

    PlanBuilder ipsec(IpsecConnection connection) {
        ipsecConnections.add(connection);
        return this;
    }

    /** Whether a route of this plan has several nexthops, or forwards through a group of several. */
    boolean spreadsOverSeveralNexthops() {
        return routes.stream().anyMatch(Route::multipath) || groups.stream().anyMatch(g -> g.members().size() > 1);
    }

    DataplanePlan build() {
        // Most hosts of a large cluster set are pods without any of Submariner's state: they all
        // share the one empty plan instead of each holding a copy of it.
        if (tables.isEmpty() && ipsets.isEmpty() && vxlans.isEmpty() && fdb.isEmpty() && neighbours.isEmpty() && nexthops.isEmpty()
                && groups.isEmpty() && routes.isEmpty() && rules.isEmpty() && sysctls.isEmpty() && wireGuardDevices.isEmpty()
                && ipsecConnections.isEmpty()) {
            return DataplanePlan.EMPTY;
        }
        List<NetfilterTable> netfilter = new ArrayList<>();
        tables.forEach((table, chains) -> netfilter.add(new NetfilterTable(table,
                chains.entrySet().stream().map(e -> new Chain(e.getKey(), e.getValue(),
                        lastRules.getOrDefault(table, Map.of()).getOrDefault(e.getKey(), List.of()))).toList())));
        return new DataplanePlan(netfilter, ipsets, vxlans, fdb, neighbours, nexthops, groups, routes, rules, sysctls,
                wireGuardDevices, ipsecConnections);
    }
}
