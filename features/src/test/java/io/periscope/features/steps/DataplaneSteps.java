package io.periscope.features.steps;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.Route;
import io.periscope.simulator.routing.CompiledNexthop;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** What is programmed on a host: iptables chains and rules, ipsets, routes, nexthop groups, VXLAN devices, FDB, sysctls. */
public final class DataplaneSteps {

    private final ClusterSetUnderTest world;
    /** Someone else's rules this scenario added, with what the host held then. */
    private final Map<List<String>, DataplanePlan> foreign = new HashMap<>();

    public DataplaneSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    private DataplanePlan programmed(String host) {
        return world.deployment().programmed(HostNames.parse(host));
    }

    private static NetfilterTable table(DataplanePlan plan, String name) {
        Table table = Table.fromIptablesName(name);
        return plan.table(table).orElse(new NetfilterTable(table, List.of()));
    }

    @Then("the {word} table of {word} has:")
    public void tableHas(String tableName, String host, DataTable rows) {
        NetfilterTable table = table(programmed(host), tableName);
        Map<String, Integer> positionInChain = new HashMap<>();
        for (Map<String, String> row : rows.asMaps()) {
            String chainName = row.get("chain").trim();
            TextPattern rule = TextPattern.parse(row.get("rule"));
            Chain chain = table.chain(chainName).orElseThrow(() -> new AssertionError(host + " has no chain " + chainName
                    + " in table " + tableName + "; its chains: " + table.chains().stream().map(Chain::name).toList()));
            int from = positionInChain.getOrDefault(chainName, 0);
            List<Rule> rules = chain.inOrder();
            int found = -1;
            for (int i = from; i < rules.size(); i++) {
                if (rule.matchesWhole(IptablesSyntax.rule(rules.get(i)))) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                throw new AssertionError(host + " has no rule '" + rule + "' in " + tableName + "/" + chainName
                        + (from > 0 ? " after the rules already found" : "") + "; the chain:\n" + describe(chainName, rules));
            }
            positionInChain.put(chainName, found + 1);
        }
    }

    @Then("the {word} table of {word} has no chain {word}")
    public void tableHasNoChain(String tableName, String host, String chainName) {
        Optional<Chain> chain = table(programmed(host), tableName).chain(chainName);
        if (chain.isPresent()) {
            throw new AssertionError(host + " has the chain " + tableName + "/" + chainName + ":\n" + describe(chainName, chain.get().inOrder()));
        }
    }

    @Then("the {word} table of {word} has no rule like {string}")
    public void tableHasNoRuleLike(String tableName, String host, String pattern) {
        TextPattern rule = TextPattern.parse(pattern);
        for (Chain chain : table(programmed(host), tableName).chains()) {
            for (Rule r : chain.inOrder()) {
                if (rule.matchesWhole(IptablesSyntax.rule(r))) {
                    throw new AssertionError(host + " still has " + IptablesSyntax.appendLine(chain.name(), r));
                }
            }
        }
    }

    /** Globalnet's own nat chains: SUBMARINER-GN-* and SM-GN-*. */
    @Then("the Globalnet chains of {word} hold {int} rules")
    public void globalnetRuleCount(String host, int expected) {
        List<Chain> chains = table(programmed(host), "nat").chains().stream()
                .filter(c -> c.name().startsWith("SUBMARINER-GN-") || c.name().startsWith("SM-GN-")).toList();
        int actual = chains.stream().mapToInt(c -> c.inOrder().size()).sum();
        if (actual != expected) {
            throw new AssertionError(host + "'s Globalnet chains hold " + actual + " rules, not " + expected + ":\n"
                    + chains.stream().map(c -> describe(c.name(), c.inOrder())).collect(Collectors.joining("\n")));
        }
    }

    @Then("the {word} table of {word} has no rule like {string} in chain {word}")
    public void chainHasNoRuleLike(String tableName, String host, String pattern, String chainName) {
        TextPattern rule = TextPattern.parse(pattern);
        table(programmed(host), tableName).chain(chainName).ifPresent(chain -> {
            for (Rule r : chain.inOrder()) {
                if (rule.matchesWhole(IptablesSyntax.rule(r))) {
                    throw new AssertionError(host + " has " + IptablesSyntax.appendLine(chain.name(), r));
                }
            }
        });
    }

    /** The ipset is named as upstream names it for the object; the rule must match exactly that set. */
    @Then("on {word} the rule for {word} in chain {word} matches the {word} ipset {word} holding {listOfAddresses}")
    public void ruleMatchesIpset(String host, String object, String chainName, String type, String setName, List<Ipv4Address> members) {
        DataplanePlan plan = programmed(host);
        Chain chain = table(plan, "nat").chain(chainName)
                .orElseThrow(() -> new AssertionError(host + " has no chain nat/" + chainName));
        chain.inOrder().stream().filter(r -> r.matches().stream()
                        .anyMatch(m -> m instanceof Match.SetMatch set && set.setName().equals(setName)))
                .findFirst()
                .orElseThrow(() -> new AssertionError(host + " has no rule for " + object + " (ipset " + setName + ") in nat/" + chainName + ":\n"
                        + describe(chainName, chain.inOrder())));
        IpSet set = plan.ipset(setName).orElseThrow(() -> new AssertionError(host + " has no ipset " + setName));
        if (!set.type().ipsetName().equals(type)) {
            throw new AssertionError("the ipset " + setName + " is of type " + set.type().ipsetName() + ", not " + type);
        }
        Set<Ipv4Prefix> expected = members.stream().map(Ipv4Prefix::host).collect(Collectors.toCollection(TreeSet::new));
        Set<Ipv4Prefix> actual = new TreeSet<>(set.members());
        if (!expected.equals(actual)) {
            throw new AssertionError("the ipset " + setName + " holds " + actual + ", not " + expected);
        }
    }

    @When("someone else's rule {string} is appended to chain {word} of the {word} table of {word}")
    public void foreignRuleAdded(String rule, String chain, String tableName, String host) {
        HostId id = HostNames.parse(host);
        DataplanePlan before = programmed(host);
        world.deployment().addForeignRule(id, Table.fromIptablesName(tableName), chain, rule);
        foreign.put(List.of(host, tableName, chain, rule), before);
    }

    @Then("someone else's rule {string} is still in chain {word} of the {word} table of {word}")
    public void foreignRuleKept(String rule, String chain, String tableName, String host) {
        DataplanePlan before = foreign.get(List.of(host, tableName, chain, rule));
        if (before == null) {
            throw new IllegalStateException("no step added '" + rule + "' to " + chain + " of " + host + " in this scenario");
        }
        if (!world.deployment().keepsForeignRule(HostNames.parse(host), before, Table.fromIptablesName(tableName), chain, rule)) {
            throw new AssertionError(host + " lost someone else's rule '-A " + chain + " " + rule + "' in its " + tableName + " table");
        }
    }

    /**
     * Level-driven cleanup after a node left: on every host of the cluster set as it is now, no route
     * (any table), nexthop, ipset member, iptables rule or VXLAN FDB entry programmed there names an
     * address the node had (its interfaces' and VXLAN devices', read before it went) and no host that
     * stays has.
     */
    @Then("no host names an address of the removed node {word}")
    public void nothingNamesTheRemovedNode(String node) {
        List<Ipv4Address> had = world.removedNodeAddresses(node)
                .orElseThrow(() -> new IllegalStateException("no step removed the node " + node + " in this scenario"));
        List<HostId> hosts = world.clusterSet().clusters().stream().flatMap(c -> c.nodes().stream().map(n -> HostId.node(c.name(), n.name())))
                .toList();
        // An address a host that stays has too (Globalnet's clusters overlap: every gateway may be 10.244.0.1) names that host.
        Set<Ipv4Address> held = new java.util.HashSet<>();
        for (HostId host : hosts) {
            world.deployment().interfaces(host).forEach(i -> held.addAll(i.addresses()));
            world.deployment().programmed(host).vxlanDevices().forEach(d -> held.add(d.address()));
        }
        List<Ipv4Address> addresses = had.stream().filter(a -> !held.contains(a)).toList();
        if (addresses.isEmpty()) {
            throw new IllegalStateException(node + " had no address of its own: " + had + " are all held by hosts that stay");
        }
        java.util.regex.Pattern named = java.util.regex.Pattern.compile("(?<![0-9.])(" + addresses.stream()
                .map(a -> java.util.regex.Pattern.quote(a.toString())).collect(Collectors.joining("|")) + ")(?![0-9])");
        List<String> left = new java.util.ArrayList<>();
        for (HostId host : hosts) {
            DataplanePlan plan = world.deployment().programmed(host);
            for (String entry : entries(plan)) {
                if (named.matcher(entry).find()) {
                    left.add(host + " still names " + node + "'s address in: " + entry);
                }
            }
        }
        if (!left.isEmpty()) {
            throw new AssertionError(left.size() + " entries name " + node + " (" + addresses + ") after it left:\n  "
                    + String.join("\n  ", left));
        }
    }

    /** Every entry of the plan that can name another host, one line each. */
    private static List<String> entries(DataplanePlan plan) {
        List<String> entries = new java.util.ArrayList<>();
        plan.routes().forEach(r -> entries.add("route " + RouteText.of(r, plan) + " (table " + r.table() + ")"));
        plan.nexthops().forEach(n -> entries.add("nexthop id " + n.id() + " via " + n.via() + " dev " + n.device()));
        plan.ipsets().forEach(set -> set.members().forEach(m -> entries.add("ipset " + set.name() + " member " + m)));
        plan.netfilter().forEach(t -> t.chains().forEach(c -> c.inOrder().forEach(r -> entries.add(t.table().iptablesName() + " "
                + IptablesSyntax.appendLine(c.name(), r)))));
        plan.fdb().forEach(f -> entries.add("fdb " + f.mac() + " dev " + f.device() + " dst " + f.destination()));
        plan.neighbours().forEach(n -> entries.add("neighbour " + n));
        return entries;
    }

    @Then("{word} has no ipset {word}")
    public void noIpset(String host, String setName) {
        programmed(host).ipset(setName).ifPresent(set -> {
            throw new AssertionError(host + " still has the ipset " + setName + " holding " + set.members());
        });
    }

    @Then("the routes of {word} in table {word} include:")
    public void routesInclude(String host, String tableName, DataTable routes) {
        DataplanePlan plan = programmed(host);
        List<String> actual = plan.routesIn(RouteText.table(tableName)).stream().map(r -> RouteText.of(r, plan)).toList();
        for (Map<String, String> row : routes.asMaps()) {
            TextPattern route = TextPattern.parse(row.get("route"));
            if (actual.stream().noneMatch(route::matchesWhole)) {
                throw new AssertionError(host + " has no route '" + route + "' in table " + tableName + "; its routes there:\n  "
                        + String.join("\n  ", actual));
            }
        }
    }

    @Then("{word} has no route to {word} in table {word}")
    public void noRoute(String host, String prefix, String tableName) {
        DataplanePlan plan = programmed(host);
        Ipv4Prefix destination = Ipv4Prefix.parse(prefix);
        List<String> found = plan.routesIn(RouteText.table(tableName)).stream().filter(r -> r.destination().overlaps(destination))
                .map(r -> RouteText.of(r, plan)).toList();
        if (!found.isEmpty()) {
            throw new AssertionError(host + " routes " + prefix + " in table " + tableName + ":\n  " + String.join("\n  ", found));
        }
    }

    @Then("on {word} the route to {word} in table {word} uses a {nexthopGroupKind} nexthop group over {listOfAddresses}")
    public void routeUsesGroup(String host, String prefix, String tableName, NexthopGroupKind kind, List<Ipv4Address> vias) {
        DataplanePlan plan = programmed(host);
        Route route = route(plan, host, prefix, tableName);
        NexthopGroup group = (route.nexthopId().isPresent() ? RouteText.group(plan, route.nexthopId().getAsInt()) : Optional.<NexthopGroup>empty())
                .orElseThrow(() -> new AssertionError("the route is no nexthop group route: " + RouteText.of(route, plan)));
        kind.check(group);
        List<Ipv4Address> actual = RouteText.nexthops(route, plan).stream().map(n -> n.via().orElseThrow()).toList();
        if (!new TreeSet<>(actual).equals(new TreeSet<>(vias))) {
            throw new AssertionError("the group of " + RouteText.of(route, plan) + " goes via " + actual + ", not " + vias);
        }
    }

    @Then("on {word} the routes to {word} and {word} in table {word} share one nexthop group")
    public void routesShareGroup(String host, String first, String second, String tableName) {
        DataplanePlan plan = programmed(host);
        Route a = route(plan, host, first, tableName);
        Route b = route(plan, host, second, tableName);
        if (a.nexthopId().isEmpty() || !a.nexthopId().equals(b.nexthopId())) {
            throw new AssertionError("the routes do not share a nexthop group:\n  " + RouteText.of(a, plan) + "\n  " + RouteText.of(b, plan));
        }
    }

    @Then("on {word} the route to {word} in table {word} has the nexthops {listOfAddresses}")
    public void routeHasNexthops(String host, String prefix, String tableName, List<Ipv4Address> vias) {
        DataplanePlan plan = programmed(host);
        Route route = route(plan, host, prefix, tableName);
        List<Ipv4Address> actual = RouteText.nexthops(route, plan).stream().map(CompiledNexthop::via).flatMap(Optional::stream).toList();
        if (!actual.equals(vias)) {
            throw new AssertionError("the route goes via " + actual + ", not " + vias + ": " + RouteText.of(route, plan));
        }
    }

    private static Route route(DataplanePlan plan, String host, String prefix, String tableName) {
        Ipv4Prefix destination = Ipv4Prefix.parse(prefix);
        return plan.routesIn(RouteText.table(tableName)).stream().filter(r -> r.destination().equals(destination)).findFirst()
                .orElseThrow(() -> new AssertionError(host + " has no route to " + prefix + " in table " + tableName));
    }

    @Then("{word} has the VXLAN device {word} with VNI {int}, UDP port {int} and address {word}")
    public void vxlanDevice(String host, String name, int vni, int port, String address) {
        VxlanDevice device = programmed(host).vxlanDevices().stream().filter(d -> d.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(host + " has no VXLAN device " + name));
        String expected = "VNI " + vni + ", UDP port " + port + ", address " + address;
        String actual = "VNI " + device.vni() + ", UDP port " + device.port() + ", address " + device.address() + "/" + device.network().length();
        if (!actual.equals(expected)) {
            throw new AssertionError(host + "'s " + name + " has " + actual + ", not " + expected);
        }
    }

    @Then("{word} has no VXLAN device {word}")
    public void noVxlanDevice(String host, String name) {
        if (programmed(host).vxlanDevices().stream().anyMatch(d -> d.name().equals(name))) {
            throw new AssertionError(host + " has a VXLAN device " + name);
        }
    }

    @Then("the all-zero FDB entries of {word} on {word} go to exactly {listOfAddresses}")
    public void floodEntries(String device, String host, List<Ipv4Address> destinations) {
        MacAddress zero = MacAddress.ZERO;
        Set<Ipv4Address> actual = programmed(host).fdb().stream().filter(e -> e.device().equals(device) && e.mac().equals(zero))
                .map(FdbEntry::destination).collect(Collectors.toCollection(TreeSet::new));
        if (!actual.equals(new TreeSet<>(destinations))) {
            throw new AssertionError("the all-zero FDB entries of " + device + " on " + host + " go to " + actual + ", not " + destinations);
        }
    }

    @Then("{word} sets {word} to {word}")
    public void sysctl(String host, String key, String value) {
        String actual = programmed(host).sysctls().get(key);
        if (!value.equals(actual)) {
            throw new AssertionError(host + " sets " + key + " to " + actual + ", not " + value);
        }
    }

    @Then("{word} looks up table {int} with priority {int}")
    public void policyRule(String host, int table, int priority) {
        if (programmed(host).rules().stream().noneMatch(r -> r.table() == table && r.priority() == priority)) {
            throw new AssertionError(host + " has no rule 'pref " + priority + " lookup " + table + "'; its rules: " + programmed(host).rules());
        }
    }

    @Then("{word} has the interface {word} with the address {word}")
    public void interfaceWithAddress(String host, String name, String address) {
        HostId id = HostNames.parse(host);
        List<Interface> interfaces = world.deployment().interfaces(id);
        Interface found = interfaces.stream().filter(i -> i.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(host + " has no interface " + name + "; its interfaces: "
                        + interfaces.stream().map(Interface::name).toList()));
        if (!found.addresses().contains(Ipv4Address.parse(address))) {
            throw new AssertionError(host + "'s " + name + " has the addresses " + found.addresses() + ", not " + address);
        }
    }

    private static String describe(String chain, List<Rule> rules) {
        if (rules.isEmpty()) {
            return "  (empty)";
        }
        return rules.stream().map(r -> "  " + IptablesSyntax.appendLine(chain, r)).collect(Collectors.joining("\n"));
    }
}
