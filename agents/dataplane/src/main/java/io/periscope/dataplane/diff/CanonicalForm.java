package io.periscope.dataplane.diff;

import io.periscope.dataplane.sysctl.SysctlCommands;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A plan written one way only, so that two plans the kernel cannot tell apart are equal records:
 * entries sorted by identity (the kernel lists them in its own order, a planner in another),
 * duplicates dropped, ipset members as a sorted set, empty built-in chains left out (Periscope having
 * no rules in FORWARD is the same as not mentioning FORWARD), the weight of a route's only nexthop
 * set to 1 (the kernel keeps weights only for multipath routes), a plain nexthop group's bucket count
 * 0, sysctl keys dotted, routes without their reasons. Rule order inside chains, nexthop order inside a multipath route and member
 * order inside a group are kept: the kernel keeps them too.
 */
public final class CanonicalForm {

    static final Comparator<FdbEntry> FDB_ORDER = Comparator.comparing(FdbEntry::device)
            .thenComparing(e -> e.mac().bits()).thenComparing(FdbEntry::destination);
    static final Comparator<Neighbour> NEIGHBOUR_ORDER = Comparator.comparing(Neighbour::device).thenComparing(Neighbour::address);
    static final Comparator<Route> ROUTE_ORDER = Comparator.comparingInt(Route::table).thenComparing(Route::destination)
            .thenComparingInt(Route::metric);
    static final Comparator<PolicyRule> RULE_ORDER = Comparator.comparingInt(PolicyRule::priority)
            .thenComparingInt(PolicyRule::table).thenComparing(PolicyRule::toString);

    private CanonicalForm() {
    }

    public static DataplanePlan of(DataplanePlan plan) {
        Map<String, String> sysctls = new TreeMap<>();
        plan.sysctls().forEach((k, v) -> sysctls.put(SysctlCommands.normalKey(k), SysctlCommands.normalValue(v)));
        return new DataplanePlan(
                netfilter(plan.netfilter()),
                plan.ipsets().stream().map(CanonicalForm::ipset).distinct().sorted(Comparator.comparing(IpSet::name)).toList(),
                plan.vxlanDevices().stream().distinct().sorted(Comparator.comparing(VxlanDevice::name)).toList(),
                plan.fdb().stream().distinct().sorted(FDB_ORDER).toList(),
                plan.neighbours().stream().distinct().sorted(NEIGHBOUR_ORDER).toList(),
                plan.nexthops().stream().distinct().sorted(Comparator.comparingInt(NexthopObject::id)).toList(),
                plan.nexthopGroups().stream().map(CanonicalForm::group).distinct().sorted(Comparator.comparingInt(NexthopGroup::id)).toList(),
                plan.routes().stream().map(CanonicalForm::route).distinct().sorted(ROUTE_ORDER).toList(),
                plan.rules().stream().distinct().sorted(RULE_ORDER).toList(),
                sysctls);
    }

    static IpSet ipset(IpSet set) {
        return new IpSet(set.name(), set.type(), set.members().stream().distinct().sorted().toList());
    }

    static NexthopGroup group(NexthopGroup group) {
        return group.resilient() ? group : new NexthopGroup(group.id(), group.members(), false, 0);
    }

    static Route route(Route planned) {
        // A route's reason is for people; the kernel holds none.
        Route route = planned.withoutReason();
        if (route.nexthops().size() != 1 || route.nexthops().getFirst().weight() == 1) {
            return route;
        }
        Nexthop only = route.nexthops().getFirst();
        return new Route(route.table(), route.destination(), route.type(),
                List.of(new Nexthop(only.via(), only.device(), 1, only.onlink())), route.nexthopId(), route.source(),
                route.metric(), route.protocol());
    }

    private static List<NetfilterTable> netfilter(List<NetfilterTable> tables) {
        List<NetfilterTable> result = new ArrayList<>();
        for (Table table : Table.values()) {
            Map<String, Chain> chains = new TreeMap<>();
            for (NetfilterTable t : tables) {
                if (t.table() != table) {
                    continue;
                }
                for (Chain chain : t.chains()) {
                    if (!(table.isBuiltin(chain.name()) && chain.inOrder().isEmpty())) {
                        chains.merge(chain.name(), chain, (a, b) -> {
                            throw new IllegalArgumentException("the plan lists " + table.iptablesName() + " chain " + a.name() + " twice");
                        });
                    }
                }
            }
            if (!chains.isEmpty()) {
                result.add(new NetfilterTable(table, List.copyOf(chains.values())));
            }
        }
        return result;
    }
}
