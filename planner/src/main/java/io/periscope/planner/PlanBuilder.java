package io.periscope.planner;

import io.periscope.plan.DataplanePlan;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
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

    // Created on first use: a large cluster set has two builders per host alive until the end of
    // planning, and most of a pod's collections stay empty.
    private Map<Table, Map<String, Object>> tables;
    /** Rules of built-in chains placed {@link HookPosition#LAST}, by table and chain. */
    private Map<Table, Map<String, List<Rule>>> lastRules;
    private List<IpSet> ipsets;
    private List<VxlanDevice> vxlans;
    private List<FdbEntry> fdb;
    private List<NexthopObject> nexthops;
    private List<NexthopGroup> groups;
    private List<Route> routes;
    private List<PolicyRule> rules;
    private Map<String, String> sysctls;
    private List<WireGuardDevice> wireGuardDevices;
    private List<IpsecConnection> ipsecConnections;

    private static <T> List<T> added(List<T> list, T item) {
        List<T> to = list == null ? new ArrayList<>() : list;
        to.add(item);
        return to;
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    /**
     * A chain being filled in. A chain built elsewhere and shared between hosts ({@link #chain(Table, Chain)})
     * is held as that {@link Chain} itself until someone adds a rule to it here, which turns it into
     * a draft of its own: a cluster's kube-proxy layer of a large set declares 4,600 shared chains,
     * and a draft for each was 230,000 objects a planning.
     */
    private static final class ChainDraft {
        private final List<Rule> rules;

        ChainDraft(List<Rule> rules) {
            this.rules = rules;
        }

        Chain build(String name, List<Rule> last) {
            return new Chain(name, rules, last);
        }
    }

    /** A table's chains in the order first named: each a {@link ChainDraft} or a shared {@link Chain}. */
    private Map<String, Object> chains(Table table) {
        if (tables == null) {
            tables = new EnumMap<>(Table.class);
        }
        return tables.computeIfAbsent(table, t -> new LinkedHashMap<>());
    }

    /**
     * Room for {@code count} chains in {@code table}, before any is declared: a table whose chain
     * count is known up front (kube-proxy's nat table, thousands of chains) is not rehashed as it grows.
     */
    PlanBuilder chainCapacity(Table table, int count) {
        if (tables == null) {
            tables = new EnumMap<>(Table.class);
        }
        if (!tables.containsKey(table)) {
            tables.put(table, java.util.LinkedHashMap.newLinkedHashMap(count));
        }
        return this;
    }

    /** Declares a chain (so it exists even when empty) and returns its rule list to append to. */
    List<Rule> chain(Table table, String name) {
        Map<String, Object> chains = chains(table);
        return switch (chains.get(name)) {
            case null -> {
                ChainDraft draft = new ChainDraft(new ArrayList<>());
                chains.put(name, draft);
                yield draft.rules;
            }
            case ChainDraft draft -> draft.rules;
            case Chain shared -> {
                // A rule added to a shared chain: from here on a copy of its own (put again, it keeps its place).
                ChainDraft draft = new ChainDraft(new ArrayList<>(shared.rules()));
                chains.put(name, draft);
                yield draft.rules;
            }
            default -> throw new IllegalStateException("not a chain: " + chains.get(name));
        };
    }

    /**
     * A whole chain built elsewhere, declared here in its place in the chain order: the plan holds
     * that very record. Chains are immutable records, so a chain equal on many hosts (kube-proxy's,
     * the same in every cluster of a set with the same services, pods and CIDRs) can be one object
     * for all of them and reads exactly as a copy would. A chain already named here gets the
     * shared chain's rules appended instead, as {@link #rule} would.
     */
    PlanBuilder chain(Table table, Chain built) {
        if (!built.last().isEmpty()) {
            throw new IllegalArgumentException(built.name() + ": a shared chain has no rules placed last");
        }
        Map<String, Object> chains = chains(table);
        Object known = chains.putIfAbsent(built.name(), built);
        if (known != null) {
            chain(table, built.name()).addAll(built.rules());
        }
        return this;
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
            case LAST -> lastRules().computeIfAbsent(table, t -> new LinkedHashMap<>()).computeIfAbsent(chain, n -> new ArrayList<>()).add(rule);
        }
        return this;
    }

    private Map<Table, Map<String, List<Rule>>> lastRules() {
        if (lastRules == null) {
            lastRules = new EnumMap<>(Table.class);
        }
        return lastRules;
    }

    PlanBuilder ipset(IpSet set) {
        ipsets = added(ipsets, set);
        return this;
    }

    PlanBuilder vxlan(VxlanDevice device) {
        vxlans = added(vxlans, device);
        return this;
    }

    PlanBuilder fdb(FdbEntry entry) {
        fdb = added(fdb, entry);
        return this;
    }

    PlanBuilder nexthop(NexthopObject object) {
        nexthops = added(nexthops, object);
        return this;
    }

    PlanBuilder group(NexthopGroup group) {
        groups = added(groups, group);
        return this;
    }

    PlanBuilder route(Route route) {
        routes = added(routes, route);
        return this;
    }

    PlanBuilder routes(List<Route> more) {
        if (routes == null) {
            routes = new ArrayList<>(more.size());
        }
        // One by one: addAll copies the list into a new array first, and a node of a large set
        // takes a short list from each of a hundred other nodes.
        for (int i = 0; i < more.size(); i++) {
            routes.add(more.get(i));
        }
        return this;
    }

    /** Room for {@code count} routes in all: a host whose route count is known up front. */
    PlanBuilder routeCapacity(int count) {
        if (routes == null) {
            routes = new ArrayList<>(count);
        } else {
            ((ArrayList<Route>) routes).ensureCapacity(count);
        }
        return this;
    }

    PlanBuilder policyRule(PolicyRule rule) {
        rules = added(rules, rule);
        return this;
    }

    PlanBuilder sysctl(String key, String value) {
        if (sysctls == null) {
            sysctls = new TreeMap<>();
        }
        sysctls.put(key, value);
        return this;
    }

    PlanBuilder wireGuard(WireGuardDevice device) {
        wireGuardDevices = added(wireGuardDevices, device);
        return this;
    }

    PlanBuilder ipsec(IpsecConnection connection) {
        ipsecConnections = added(ipsecConnections, connection);
        return this;
    }

    /** Whether a route of this plan has several nexthops, or forwards through a group of several. */
    boolean spreadsOverSeveralNexthops() {
        return orEmpty(routes).stream().anyMatch(Route::multipath) || orEmpty(groups).stream().anyMatch(g -> g.members().size() > 1);
    }

    DataplanePlan build() {
        // Most hosts of a large cluster set are pods without any of Submariner's state: they all
        // share the one empty plan instead of each holding a copy of it.
        if (tables == null && ipsets == null && vxlans == null && fdb == null && nexthops == null
                && groups == null && routes == null && rules == null && sysctls == null && wireGuardDevices == null
                && ipsecConnections == null) {
            return DataplanePlan.EMPTY;
        }
        List<NetfilterTable> netfilter = new ArrayList<>();
        Map<Table, Map<String, List<Rule>>> last = lastRules == null ? Map.of() : lastRules;
        if (tables != null) {
            tables.forEach((table, chains) -> {
                Map<String, List<Rule>> lastOfTable = last.getOrDefault(table, Map.of());
                List<Chain> built = new ArrayList<>(chains.size());
                chains.forEach((name, chain) -> {
                    // Looked up only in a table with rules placed last: kube-proxy's, thousands of chains, has none.
                    List<Rule> lastOfChain = lastOfTable.isEmpty() ? List.of() : lastOfTable.getOrDefault(name, List.of());
                    built.add(switch (chain) {
                        case Chain shared -> lastOfChain.isEmpty() ? shared : new Chain(name, shared.rules(), lastOfChain);
                        case ChainDraft draft -> draft.build(name, lastOfChain);
                        default -> throw new IllegalStateException("not a chain: " + chain);
                    });
                });
                netfilter.add(new NetfilterTable(table, built));
            });
        }
        return new DataplanePlan(netfilter, orEmpty(ipsets), orEmpty(vxlans), orEmpty(fdb), List.of(), orEmpty(nexthops),
                orEmpty(groups), orEmpty(routes), orEmpty(rules), sysctls == null ? Map.of() : sysctls,
                orEmpty(wireGuardDevices), orEmpty(ipsecConnections));
    }
}
