package io.periscope.plan;

import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A plan layer with one device name replaced by another wherever the layer names a device: a VXLAN
 * device's underlay, routes' and nexthop objects' devices, rules' {@code -i}/{@code -o}, policy rules'
 * {@code iif}, per-device sysctls. How a real node's agent binds the lab's second device ({@code wan0},
 * which stands for the same default interface towards the WAN) to the interface it discovered.
 */
public final class DeviceRename {

    private DeviceRename() {
    }

    public static DataplanePlan rename(DataplanePlan plan, String from, String to) {
        if (from.equals(to)) {
            return plan;
        }
        List<NetfilterTable> netfilter = plan.netfilter().stream().map(t -> new NetfilterTable(t.table(), t.chains().stream()
                .map(c -> new Chain(c.name(), c.rules().stream().map(r -> rule(r, from, to)).toList(),
                        c.last().stream().map(r -> rule(r, from, to)).toList())).toList())).toList();
        List<VxlanDevice> vxlan = plan.vxlanDevices().stream().map(d -> d.underlay().filter(from::equals).isPresent()
                ? new VxlanDevice(d.name(), d.vni(), d.port(), d.local(), Optional.of(to), d.mtu(), d.address(), d.network(), d.learning()) : d)
                .toList();
        List<NexthopObject> nexthops = plan.nexthops().stream()
                .map(n -> n.device().equals(from) ? new NexthopObject(n.id(), n.via(), to, n.onlink()) : n).toList();
        List<Route> routes = plan.routes().stream().map(r -> new Route(r.table(), r.destination(), r.type(),
                r.nexthops().stream().map(n -> n.device().equals(from) ? new Nexthop(n.via(), to, n.weight(), n.onlink()) : n).toList(),
                r.nexthopId(), r.source(), r.metric(), r.protocol(), r.reason())).toList();
        List<PolicyRule> rules = plan.rules().stream().map(r -> r.inInterface().filter(from::equals).isPresent()
                ? new PolicyRule(r.priority(), r.from(), r.to(), r.fwmark(), java.util.Optional.of(to), r.table()) : r).toList();
        Map<String, String> sysctls = new LinkedHashMap<>();
        String prefix = "net.ipv4.conf." + from + ".";
        plan.sysctls().forEach((key, value) -> sysctls.put(key.startsWith(prefix) ? "net.ipv4.conf." + to + "." + key.substring(prefix.length())
                : key, value));
        return new DataplanePlan(netfilter, plan.ipsets(), vxlan, plan.fdb(), plan.neighbours(), nexthops, plan.nexthopGroups(), routes,
                rules, sysctls, plan.wireGuardDevices(), plan.ipsecConnections());
    }

    private static Rule rule(Rule rule, String from, String to) {
        List<Match> matches = rule.matches().stream().map(m -> switch (m) {
            case Match.InInterface i when i.name().equals(from) -> (Match) new Match.InInterface(to, i.negated());
            case Match.OutInterface o when o.name().equals(from) -> (Match) new Match.OutInterface(to, o.negated());
            default -> m;
        }).toList();
        return matches.equals(rule.matches()) ? rule : new Rule(matches, rule.target(), rule.comment());
    }
}
