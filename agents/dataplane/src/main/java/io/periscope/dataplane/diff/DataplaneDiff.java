package io.periscope.dataplane.diff;

import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.FdbChange;
import io.periscope.dataplane.change.IpSetChange;
import io.periscope.dataplane.change.NeighbourChange;
import io.periscope.dataplane.change.NexthopGroupChange;
import io.periscope.dataplane.change.NexthopObjectChange;
import io.periscope.dataplane.change.PolicyRuleChange;
import io.periscope.dataplane.change.RouteChange;
import io.periscope.dataplane.change.SysctlChange;
import io.periscope.dataplane.change.VxlanDeviceChange;
import io.periscope.dataplane.iptables.ChainOwnership;
import io.periscope.dataplane.iptables.NetfilterDiff;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
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
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The changes that turn one dataplane state into another, in the order they must be applied:
 * <ol>
 * <li>ipset creations and membership changes (a new iptables rule may name a new set);</li>
 * <li>sysctls that already exist (before routes, so {@code ignore_routes_with_linkdown} holds when
 *     multipath routes appear);</li>
 * <li>netfilter, table by table;</li>
 * <li>deletions forced by what the kernel cannot change in place: a VXLAN device whose VNI, port,
 *     underlay or address changes, a nexthop id that changes kind, a resilient group whose buckets
 *     change, and everything that hangs on them (routes, groups, neighbours, FDB entries);</li>
 * <li>additions and replacements: devices, neighbours, nexthop objects, groups, routes, rules, FDB;</li>
 * <li>deletions of what is no longer wanted, the other way round: rules, routes, groups, objects,
 *     neighbours, FDB, devices (new paths are in place before old ones go);</li>
 * <li>sysctls of devices created above, and sysctls no longer managed (released, nothing runs);</li>
 * <li>ipset destructions (after the rules that named the sets are gone).</li>
 * </ol>
 * Only what differs appears; {@code between(x, x)} is empty. {@link #applyTo} applies the changes to
 * records, so {@code between(a, b).applyTo(a)} has the canonical form of {@code b}.
 */
public record DataplaneDiff(List<DataplaneChange> changes) {

    public DataplaneDiff {
        changes = List.copyOf(changes);
    }

    public static final DataplaneDiff NONE = new DataplaneDiff(List.of());

    /** Between two plans, everything in {@code current} being Periscope's (tests, what-if comparisons). */
    public static DataplaneDiff between(DataplanePlan current, DataplanePlan desired) {
        DataplanePlan now = CanonicalForm.of(current);
        Map<Table, SavedTable> saved = new EnumMap<>(Table.class);
        now.netfilter().forEach(t -> saved.put(t.table(), SavedTable.of(t)));
        return between(now, saved, desired, ChainOwnership.everything());
    }

    /**
     * Between what a node holds and the plan: {@code current} is the node's state as far as it is
     * Periscope's, {@code currentNetfilter} the full {@code iptables-save} tables (where everyone
     * else's rules sit), {@code ownership} which chains and rules are Periscope's.
     */
    public static DataplaneDiff between(DataplanePlan current, Map<Table, SavedTable> currentNetfilter, DataplanePlan desired,
                                        ChainOwnership ownership) {
        DataplanePlan now = CanonicalForm.of(current);
        DataplanePlan want = CanonicalForm.of(desired);
        List<DataplaneChange> changes = new ArrayList<>();
        Ipsets ipsets = ipsets(now, want);
        Sysctls sysctls = sysctls(now, want);
        changes.addAll(ipsets.updates);
        changes.addAll(sysctls.existing);
        for (Table table : Table.values()) {
            SavedTable saved = currentNetfilter.getOrDefault(table, SavedTable.empty(table));
            NetfilterTable wanted = want.table(table).orElse(new NetfilterTable(table, List.of()));
            changes.addAll(NetfilterDiff.between(saved, wanted, ownership));
        }
        changes.addAll(new Routing(now, want).changes());
        changes.addAll(sysctls.created);
        changes.addAll(sysctls.released);
        changes.addAll(ipsets.destructions);
        return new DataplaneDiff(changes);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public <T extends DataplaneChange> List<T> changes(Class<T> kind) {
        return changes.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    /** The state after the changes, in canonical form. */
    public DataplanePlan applyTo(DataplanePlan current) {
        DataplanePlan plan = CanonicalForm.of(current);
        Map<Table, Map<String, Chain>> tables = new EnumMap<>(Table.class);
        for (NetfilterTable table : plan.netfilter()) {
            Map<String, Chain> chains = new LinkedHashMap<>();
            table.chains().forEach(c -> chains.put(c.name(), c));
            tables.put(table.table(), chains);
        }
        Map<String, IpSet> ipsets = index(plan.ipsets(), IpSet::name);
        Map<String, VxlanDevice> links = index(plan.vxlanDevices(), VxlanDevice::name);
        Set<FdbEntry> fdb = new LinkedHashSet<>(plan.fdb());
        Map<List<Object>, Neighbour> neighbours = index(plan.neighbours(), DataplaneDiff::neighbourKey);
        Map<Integer, NexthopObject> objects = index(plan.nexthops(), NexthopObject::id);
        Map<Integer, NexthopGroup> groups = index(plan.nexthopGroups(), NexthopGroup::id);
        Map<Route.RouteKey, Route> routes = index(plan.routes(), Route::key);
        Set<PolicyRule> rules = new LinkedHashSet<>(plan.rules());
        Map<String, String> sysctls = new TreeMap<>(plan.sysctls());
        for (DataplaneChange change : changes) {
            switch (change) {
                case ChainChange c -> {
                    Map<String, Chain> chains = tables.computeIfAbsent(c.table(), t -> new LinkedHashMap<>());
                    c.after().ifPresentOrElse(chain -> chains.put(chain.name(), chain), () -> chains.remove(c.name()));
                }
                case BuiltinChainChange c -> tables.computeIfAbsent(c.table(), t -> new LinkedHashMap<>())
                        .put(c.chain(), new Chain(c.chain(), c.after(), c.last()));
                case IpSetChange c -> replace(ipsets, c.name(), c.after());
                case VxlanDeviceChange c -> replace(links, c.name(), c.after());
                case FdbChange c -> {
                    c.before().ifPresent(fdb::remove);
                    c.after().ifPresent(fdb::add);
                }
                case NeighbourChange c -> {
                    c.before().ifPresent(n -> neighbours.remove(neighbourKey(n)));
                    c.after().ifPresent(n -> neighbours.put(neighbourKey(n), n));
                }
                case NexthopObjectChange c -> replace(objects, c.id(), c.after());
                case NexthopGroupChange c -> replace(groups, c.id(), c.after());
                case RouteChange c -> replace(routes, c.key(), c.after());
                case PolicyRuleChange c -> {
                    c.before().ifPresent(rules::remove);
                    c.after().ifPresent(rules::add);
                }
                case SysctlChange c -> replace(sysctls, c.key(), c.after());
            }
        }
        List<NetfilterTable> netfilter = new ArrayList<>();
        tables.forEach((table, chains) -> netfilter.add(new NetfilterTable(table, List.copyOf(chains.values()))));
        return CanonicalForm.of(new DataplanePlan(netfilter, List.copyOf(ipsets.values()), List.copyOf(links.values()),
                List.copyOf(fdb), List.copyOf(neighbours.values()), List.copyOf(objects.values()), List.copyOf(groups.values()),
                List.copyOf(routes.values()), List.copyOf(rules), sysctls));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(changes.size() + " changes");
        changes.forEach(c -> text.append("\n  ").append(c));
        return text.toString();
    }

    private static <K, V> void replace(Map<K, V> map, K key, Optional<V> value) {
        map.remove(key);
        value.ifPresent(v -> map.put(key, v));
    }

    private static <K, V> Map<K, V> index(List<V> values, Function<V, K> key) {
        Map<K, V> map = new LinkedHashMap<>();
        values.forEach(v -> map.put(key.apply(v), v));
        return map;
    }

    private static List<Object> neighbourKey(Neighbour neighbour) {
        return List.of(neighbour.device(), neighbour.address());
    }

    private record Ipsets(List<DataplaneChange> updates, List<DataplaneChange> destructions) {
    }

    private static Ipsets ipsets(DataplanePlan now, DataplanePlan want) {
        Map<String, IpSet> had = index(now.ipsets(), IpSet::name);
        List<DataplaneChange> updates = new ArrayList<>();
        List<DataplaneChange> destructions = new ArrayList<>();
        for (IpSet set : want.ipsets()) {
            Optional<IpSet> before = Optional.ofNullable(had.remove(set.name()));
            if (!before.equals(Optional.of(set))) {
                updates.add(new IpSetChange(before, Optional.of(set)));
            }
        }
        had.values().forEach(set -> destructions.add(new IpSetChange(Optional.of(set), Optional.empty())));
        return new Ipsets(updates, destructions);
    }

    private record Sysctls(List<DataplaneChange> existing, List<DataplaneChange> created, List<DataplaneChange> released) {
    }

    private static Sysctls sysctls(DataplanePlan now, DataplanePlan want) {
        List<DataplaneChange> existing = new ArrayList<>();
        List<DataplaneChange> created = new ArrayList<>();
        List<DataplaneChange> released = new ArrayList<>();
        want.sysctls().forEach((key, value) -> {
            Optional<String> before = Optional.ofNullable(now.sysctls().get(key));
            if (!before.equals(Optional.of(value))) {
                (before.isPresent() ? existing : created).add(new SysctlChange(key, before, Optional.of(value)));
            }
        });
        now.sysctls().forEach((key, value) -> {
            if (!want.sysctls().containsKey(key)) {
                released.add(new SysctlChange(key, Optional.of(value), Optional.empty()));
            }
        });
        return new Sysctls(existing, created, released);
    }

    /** Links, neighbours, FDB, nexthops, routes and policy rules: what {@code ip} and {@code bridge} program. */
    private static final class Routing {
        private final Map<String, VxlanDevice> links;
        private final Map<List<Object>, Neighbour> neighbours;
        private final Set<FdbEntry> fdb;
        private final Map<Integer, NexthopObject> objects;
        private final Map<Integer, NexthopGroup> groups;
        private final Map<Route.RouteKey, Route> routes;
        private final Set<PolicyRule> rules;
        private final DataplanePlan want;

        Routing(DataplanePlan now, DataplanePlan want) {
            this.links = index(now.vxlanDevices(), VxlanDevice::name);
            this.neighbours = index(now.neighbours(), DataplaneDiff::neighbourKey);
            this.fdb = new LinkedHashSet<>(now.fdb());
            this.objects = index(now.nexthops(), NexthopObject::id);
            this.groups = index(now.nexthopGroups(), NexthopGroup::id);
            this.routes = index(now.routes(), Route::key);
            this.rules = new LinkedHashSet<>(now.rules());
            this.want = want;
        }

        List<DataplaneChange> changes() {
            checkDesired();
            List<DataplaneChange> changes = new ArrayList<>(forcedDeletions());
            changes.addAll(additions());
            changes.addAll(deletions());
            return changes;
        }

        /**
         * What the kernel cannot change in place is deleted first, with everything hanging on it;
         * the additions then recreate whatever the plan still wants. The current state maps lose
         * those entries, so the additions see them as missing.
         */
        private List<DataplaneChange> forcedDeletions() {
            Map<String, VxlanDevice> wantLinks = index(want.vxlanDevices(), VxlanDevice::name);
            Set<String> doomedLinks = new HashSet<>();
            links.forEach((name, device) -> {
                VxlanDevice wanted = wantLinks.get(name);
                if (wanted != null && !VxlanDeviceChange.changeableInPlace(device, wanted)) {
                    doomedLinks.add(name);
                }
            });
            Map<Integer, NexthopObject> wantObjects = index(want.nexthops(), NexthopObject::id);
            Map<Integer, NexthopGroup> wantGroups = index(want.nexthopGroups(), NexthopGroup::id);
            Set<Integer> doomedIds = new HashSet<>();
            objects.values().forEach(o -> {
                if (doomedLinks.contains(o.device()) || wantGroups.containsKey(o.id())) {
                    doomedIds.add(o.id());
                }
            });
            groups.values().forEach(g -> {
                NexthopGroup wanted = wantGroups.get(g.id());
                boolean memberDoomed = g.members().stream().anyMatch(m -> doomedIds.contains(m.nexthopId()));
                if (wantObjects.containsKey(g.id()) || memberDoomed
                        || wanted != null && !NexthopGroupChange.replaceableInPlace(g, wanted)) {
                    doomedIds.add(g.id());
                }
            });
            List<DataplaneChange> deletions = new ArrayList<>();
            for (Route route : List.copyOf(routes.values())) {
                boolean onDoomedLink = route.nexthops().stream().anyMatch(n -> doomedLinks.contains(n.device()));
                if (onDoomedLink || route.nexthopId().isPresent() && doomedIds.contains(route.nexthopId().getAsInt())) {
                    deletions.add(new RouteChange(Optional.of(routes.remove(route.key())), Optional.empty()));
                }
            }
            for (NexthopGroup group : List.copyOf(groups.values())) {
                if (doomedIds.contains(group.id())) {
                    deletions.add(new NexthopGroupChange(Optional.of(groups.remove(group.id())), Optional.empty()));
                }
            }
            for (NexthopObject object : List.copyOf(objects.values())) {
                if (doomedIds.contains(object.id())) {
                    deletions.add(new NexthopObjectChange(Optional.of(objects.remove(object.id())), Optional.empty()));
                }
            }
            for (Neighbour neighbour : List.copyOf(neighbours.values())) {
                if (doomedLinks.contains(neighbour.device())) {
                    deletions.add(new NeighbourChange(Optional.of(neighbours.remove(neighbourKey(neighbour))), Optional.empty()));
                }
            }
            for (FdbEntry entry : List.copyOf(fdb)) {
                if (doomedLinks.contains(entry.device())) {
                    fdb.remove(entry);
                    deletions.add(FdbChange.delete(entry));
                }
            }
            for (String name : doomedLinks.stream().sorted().toList()) {
                deletions.add(new VxlanDeviceChange(Optional.of(links.remove(name)), Optional.empty()));
            }
            return deletions;
        }

        private List<DataplaneChange> additions() {
            List<DataplaneChange> changes = new ArrayList<>();
            for (VxlanDevice device : want.vxlanDevices()) {
                Optional<VxlanDevice> before = Optional.ofNullable(links.get(device.name()));
                if (!before.equals(Optional.of(device))) {
                    changes.add(new VxlanDeviceChange(before, Optional.of(device)));
                }
            }
            for (Neighbour neighbour : want.neighbours()) {
                Optional<Neighbour> before = Optional.ofNullable(neighbours.get(neighbourKey(neighbour)));
                if (!before.equals(Optional.of(neighbour))) {
                    changes.add(new NeighbourChange(before, Optional.of(neighbour)));
                }
            }
            for (NexthopObject object : want.nexthops()) {
                Optional<NexthopObject> before = Optional.ofNullable(objects.get(object.id()));
                if (!before.equals(Optional.of(object))) {
                    changes.add(new NexthopObjectChange(before, Optional.of(object)));
                }
            }
            for (NexthopGroup group : want.nexthopGroups()) {
                Optional<NexthopGroup> before = Optional.ofNullable(groups.get(group.id()));
                if (!before.equals(Optional.of(group))) {
                    changes.add(new NexthopGroupChange(before, Optional.of(group)));
                }
            }
            for (Route route : want.routes()) {
                Optional<Route> before = Optional.ofNullable(routes.get(route.key()));
                if (!before.equals(Optional.of(route))) {
                    changes.add(new RouteChange(before, Optional.of(route)));
                }
            }
            for (PolicyRule rule : want.rules()) {
                if (!rules.contains(rule)) {
                    changes.add(PolicyRuleChange.add(rule));
                }
            }
            for (FdbEntry entry : want.fdb()) {
                if (!fdb.contains(entry)) {
                    changes.add(new FdbChange(unicastEntry(fdb, entry), Optional.of(entry)));
                }
            }
            return changes;
        }

        private List<DataplaneChange> deletions() {
            Set<String> wantLinks = new HashSet<>(want.vxlanDevices().stream().map(VxlanDevice::name).toList());
            Set<List<Object>> wantNeighbours = new HashSet<>(want.neighbours().stream().map(DataplaneDiff::neighbourKey).toList());
            Set<Integer> wantObjects = new HashSet<>(want.nexthops().stream().map(NexthopObject::id).toList());
            Set<Integer> wantGroups = new HashSet<>(want.nexthopGroups().stream().map(NexthopGroup::id).toList());
            Set<Route.RouteKey> wantRoutes = new HashSet<>(want.routes().stream().map(Route::key).toList());
            List<DataplaneChange> changes = new ArrayList<>();
            rules.stream().filter(r -> !want.rules().contains(r)).forEach(r -> changes.add(PolicyRuleChange.delete(r)));
            routes.values().stream().filter(r -> !wantRoutes.contains(r.key()))
                    .forEach(r -> changes.add(new RouteChange(Optional.of(r), Optional.empty())));
            groups.values().stream().filter(g -> !wantGroups.contains(g.id()))
                    .forEach(g -> changes.add(new NexthopGroupChange(Optional.of(g), Optional.empty())));
            objects.values().stream().filter(o -> !wantObjects.contains(o.id()))
                    .forEach(o -> changes.add(new NexthopObjectChange(Optional.of(o), Optional.empty())));
            neighbours.values().stream().filter(n -> !wantNeighbours.contains(neighbourKey(n)))
                    .forEach(n -> changes.add(new NeighbourChange(Optional.of(n), Optional.empty())));
            fdb.stream().filter(e -> !want.fdb().contains(e) && unicastEntry(want.fdb(), e).isEmpty())
                    .forEach(e -> changes.add(FdbChange.delete(e)));
            links.values().stream().filter(l -> !wantLinks.contains(l.name()))
                    .forEach(l -> changes.add(new VxlanDeviceChange(Optional.of(l), Optional.empty())));
            return changes;
        }

        /**
         * The plan must not lean on something the same diff deletes: a VXLAN device it drops, or a
         * nexthop id it drops. (A device or nexthop that is not Periscope's is not in the current
         * state and is left for the kernel to check.)
         */
        private void checkDesired() {
            Set<String> droppedLinks = new HashSet<>(links.keySet());
            want.vxlanDevices().forEach(d -> droppedLinks.remove(d.name()));
            Set<Integer> droppedIds = new HashSet<>(objects.keySet());
            droppedIds.addAll(groups.keySet());
            want.nexthops().forEach(o -> droppedIds.remove(o.id()));
            want.nexthopGroups().forEach(g -> droppedIds.remove(g.id()));
            for (Route route : want.routes()) {
                for (Nexthop nexthop : route.nexthops()) {
                    requireLink(droppedLinks, nexthop.device(), "route to " + route.destination() + " in table " + route.table());
                }
                if (route.nexthopId().isPresent() && droppedIds.contains(route.nexthopId().getAsInt())) {
                    throw new IllegalArgumentException("the plan's route to " + route.destination() + " in table " + route.table()
                            + " uses nexthop id " + route.nexthopId().getAsInt() + ", which the plan drops; add the nexthop to the plan");
                }
            }
            for (NexthopObject object : want.nexthops()) {
                requireLink(droppedLinks, object.device(), "nexthop " + object.id());
            }
            for (NexthopGroup group : want.nexthopGroups()) {
                for (NexthopGroup.Member member : group.members()) {
                    if (droppedIds.contains(member.nexthopId())) {
                        throw new IllegalArgumentException("the plan's nexthop group " + group.id() + " has member " + member.nexthopId()
                                + ", which the plan drops; add the nexthop to the plan");
                    }
                }
            }
            want.neighbours().forEach(n -> requireLink(droppedLinks, n.device(), "neighbour " + n.address()));
            want.fdb().forEach(e -> requireLink(droppedLinks, e.device(), "FDB entry " + e.mac() + " dst " + e.destination()));
            Map<List<Object>, FdbEntry> unicast = new HashMap<>();
            for (FdbEntry entry : want.fdb()) {
                if (entry.mac().equals(MacAddress.ZERO)) {
                    continue;
                }
                FdbEntry other = unicast.putIfAbsent(List.of(entry.device(), entry.mac()), entry);
                if (other != null) {
                    throw new IllegalArgumentException("the plan's FDB sends " + entry.mac() + " on " + entry.device() + " to both "
                            + other.destination() + " and " + entry.destination() + "; a VXLAN device keeps several destinations"
                            + " only for 00:00:00:00:00:00, so keep one entry per MAC");
                }
            }
        }

        /** The entry of {@code entries} for the same device and unicast MAC as {@code entry}: the one it replaces. */
        private static Optional<FdbEntry> unicastEntry(Collection<FdbEntry> entries, FdbEntry entry) {
            if (entry.mac().equals(MacAddress.ZERO)) {
                return Optional.empty();
            }
            return entries.stream().filter(e -> e.device().equals(entry.device()) && e.mac().equals(entry.mac())).findFirst();
        }

        private static void requireLink(Set<String> droppedLinks, String device, String what) {
            if (droppedLinks.contains(device)) {
                throw new IllegalArgumentException("the plan's " + what + " uses device " + device
                        + ", a VXLAN device the plan no longer has; add the device to the plan or drop the " + what);
            }
        }
    }
}
