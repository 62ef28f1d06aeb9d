package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.iptables.ChainOwnership;
import io.periscope.dataplane.iptables.SavedChain;
import io.periscope.dataplane.iptables.SavedRule;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.dataplane.sysctl.SysctlCommands;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The part of a node's kernel state that is Periscope's for one reconcile: what {@link Ownership}
 * gives by prefix, table and protocol, plus every entry the plans name (by name, id or key). The
 * reader keeps only this part of what the kernel holds, so the diff can neither see nor remove
 * anything else.
 */
public final class Scope {

    /** The kernel's own rules (local, main, default lookups) are never Periscope's. */
    private static final Set<PolicyRule> DEFAULT_RULES = Set.of(PolicyRule.lookup(0, 255), PolicyRule.lookup(32766, 254),
            PolicyRule.lookup(32767, 253));

    private final Ownership ownership;
    private final List<DataplanePlan> plans;
    private final Set<String> ipsets = new HashSet<>();
    private final Set<String> links = new HashSet<>();
    private final Set<Route.RouteKey> routes = new HashSet<>();
    private final Set<Integer> nexthopIds = new HashSet<>();
    private final Set<PolicyRule> rules = new HashSet<>();
    private final Set<List<Object>> neighbours = new HashSet<>();
    private final Set<FdbEntry> fdb = new HashSet<>();
    private final Set<String> sysctls = new TreeSet<>();
    private final List<NetfilterTable> netfilter = new ArrayList<>();

    Scope(Ownership ownership, List<DataplanePlan> plans) {
        this.ownership = ownership;
        this.plans = List.copyOf(plans);
        for (DataplanePlan plan : plans) {
            plan.ipsets().forEach(s -> ipsets.add(s.name()));
            plan.vxlanDevices().forEach(d -> links.add(d.name()));
            plan.routes().forEach(r -> routes.add(r.key()));
            plan.nexthops().forEach(o -> nexthopIds.add(o.id()));
            plan.nexthopGroups().forEach(g -> nexthopIds.add(g.id()));
            rules.addAll(plan.rules());
            plan.neighbours().forEach(n -> neighbours.add(List.of(n.device(), n.address())));
            fdb.addAll(plan.fdb());
            plan.sysctls().keySet().forEach(k -> sysctls.add(SysctlCommands.normalKey(k)));
            netfilter.addAll(plan.netfilter());
        }
    }

    /** Also owns what {@code plan} names (a rollback owns both the failed plan and the state it restores). */
    public Scope including(DataplanePlan plan) {
        List<DataplanePlan> all = new ArrayList<>(plans);
        all.add(plan);
        return new Scope(ownership, all);
    }

    public Ownership ownership() {
        return ownership;
    }

    public ChainOwnership chainOwnership() {
        return ChainOwnership.prefixes(ownership.chainPrefixes()).claiming(netfilter);
    }

    public Set<String> sysctlKeys() {
        return Set.copyOf(sysctls);
    }

    public boolean ownsIpset(String name) {
        return ipsets.contains(name) || ownership.ipsetPrefixes().stream().anyMatch(name::startsWith);
    }

    public boolean ownsLink(String name) {
        return links.contains(name) || ownership.linkPrefixes().stream().anyMatch(name::startsWith);
    }

    /**
     * Everything Periscope owns in {@code kernel}, a plan read from a node without any filter.
     * {@code saved} gives the iptables tables, from which owned chains and, in built-in chains, the
     * rules that are Periscope's are taken.
     */
    public DataplanePlan restrict(DataplanePlan kernel, Map<Table, SavedTable> saved) {
        Set<Integer> ownedObjects = new HashSet<>();
        List<NexthopObject> objects = kernel.nexthops().stream()
                .filter(o -> nexthopIds.contains(o.id()) || ownsLink(o.device())).toList();
        objects.forEach(o -> ownedObjects.add(o.id()));
        List<NexthopGroup> groups = kernel.nexthopGroups().stream()
                .filter(g -> nexthopIds.contains(g.id())
                        || g.members().stream().allMatch(m -> ownedObjects.contains(m.nexthopId())))
                .toList();
        Set<Integer> ownedIds = new HashSet<>(ownedObjects);
        groups.forEach(g -> ownedIds.add(g.id()));
        Map<String, String> sysctlValues = new TreeMap<>();
        kernel.sysctls().forEach((k, v) -> {
            if (sysctls.contains(SysctlCommands.normalKey(k))) {
                sysctlValues.put(SysctlCommands.normalKey(k), v);
            }
        });
        return new DataplanePlan(
                netfilter(saved),
                kernel.ipsets().stream().filter(s -> ownsIpset(s.name())).toList(),
                kernel.vxlanDevices().stream().filter(d -> ownsLink(d.name())).toList(),
                kernel.fdb().stream().filter(e -> fdb.contains(e) || ownsLink(e.device())).toList(),
                kernel.neighbours().stream().filter(n -> neighbours.contains(List.of(n.device(), n.address())) || ownsLink(n.device())).toList(),
                objects,
                groups,
                kernel.routes().stream().filter(r -> ownsRoute(r, ownedIds)).toList(),
                kernel.rules().stream().filter(this::ownsRule).toList(),
                sysctlValues);
    }

    private boolean ownsRoute(Route route, Set<Integer> ownedIds) {
        if (routes.contains(route.key())) {
            return true;
        }
        if (!ownership.routeProtocols().contains(route.protocol())) {
            return false;
        }
        if (ownership.routeTables().contains(route.table())) {
            return true;
        }
        OptionalInt nhid = route.nexthopId();
        if (nhid.isPresent()) {
            return ownedIds.contains(nhid.getAsInt());
        }
        return !route.nexthops().isEmpty() && route.nexthops().stream().map(Nexthop::device).allMatch(this::ownsLink);
    }

    private boolean ownsRule(PolicyRule rule) {
        return rules.contains(rule) || ownership.routeTables().contains(rule.table()) && !DEFAULT_RULES.contains(rule);
    }

    /** Owned chains whole, and in built-in chains Periscope's rules in kernel order. */
    private List<NetfilterTable> netfilter(Map<Table, SavedTable> saved) {
        ChainOwnership chains = chainOwnership();
        List<NetfilterTable> tables = new ArrayList<>();
        saved.forEach((table, savedTable) -> {
            NetfilterTable none = new NetfilterTable(table, List.of());
            List<Chain> owned = new ArrayList<>();
            for (SavedChain chain : savedTable.chains()) {
                if (table.isBuiltin(chain.name())) {
                    Chain ours = placed(table, chain, chains, none);
                    if (!ours.inOrder().isEmpty()) {
                        owned.add(ours);
                    }
                } else if (chains.ownsChain(chain.name(), none)) {
                    owned.add(new Chain(chain.name(), chain.parsedRules()));
                }
            }
            if (!owned.isEmpty()) {
                tables.add(new NetfilterTable(table, owned));
            }
        });
        return tables;
    }

    /**
     * Periscope's rules of a built-in chain, in kernel order, split where they are found: those at
     * the top, above everyone else's rules, are first; from the first one below someone else's rule,
     * or placed last by one of the plans, they are last. A plan restoring what was read puts them back
     * where they were.
     */
    private Chain placed(Table table, SavedChain chain, ChainOwnership chains, NetfilterTable none) {
        Set<Rule> plannedLast = new HashSet<>();
        for (NetfilterTable t : netfilter) {
            if (t.table() == table) {
                t.chain(chain.name()).ifPresent(c -> plannedLast.addAll(c.last()));
            }
        }
        List<Rule> first = new ArrayList<>();
        List<Rule> last = new ArrayList<>();
        boolean belowOthers = false;
        for (SavedRule rule : chain.rules()) {
            if (rule instanceof SavedRule.Parsed p && chains.ownsBuiltinRule(chain.name(), p.rule(), none)) {
                if (belowOthers || !last.isEmpty() || plannedLast.contains(p.rule())) {
                    last.add(p.rule());
                } else {
                    first.add(p.rule());
                }
            } else {
                belowOthers = true;
            }
        }
        return new Chain(chain.name(), first, last);
    }

    @Override
    public String toString() {
        return "scope of " + ownership + " and " + plans.size() + " plan(s)";
    }
}
