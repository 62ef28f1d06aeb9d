package io.periscope.simulator.routing;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.simulator.trace.Packet;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * The nexthop Linux takes for a packet, per host: the {@link KernelMultipathHash} under the
 * host's seed and the hash policy its plan sets, then hash-threshold over a multipath route's nexthops or a plain group's members, or
 * the bucket of a resilient group ({@link ResilientBuckets}). Hosts without a known seed fall back to
 * Periscope's documented hash, which is then only one of the kernel's possible choices.
 *
 * <p>Resilient groups carry state: the tables start as a new group builds them, and
 * {@link #after(ClusterSetPlan)} moves them as replacing the groups would, keeping the buckets that
 * carried a packet through this choice or the choices before it ({@link #busy()}) unless their member
 * left. A bucket that moved counts as unused until a packet takes it again (the kernel's
 * {@code migrated_time}), and a group of one member marks no bucket used: its route has one path, so
 * the kernel never looks at the buckets. Both checked against the kernel in
 * {@code ResilientGroupsHandBackWhatWasNotUsedSinceItMoved}.
 */
public final class KernelNexthopChoice implements NexthopChoice {

    private final ToIntFunction<HostId> seeds;
    private final Set<HostId> seeded;
    private final Map<HostId, Map<Integer, ResilientBuckets>> tables;
    private final Map<HostId, Map<Integer, Ipv4Address>> vias;
    private final Map<HostId, Map<Integer, Set<Integer>>> busy = new HashMap<>();

    private KernelNexthopChoice(Set<HostId> seeded, ToIntFunction<HostId> seeds, Map<HostId, Map<Integer, ResilientBuckets>> tables,
                                Map<HostId, Map<Integer, Ipv4Address>> vias) {
        this.seeded = seeded;
        this.seeds = seeds;
        this.tables = tables;
        this.vias = vias;
    }

    private KernelNexthopChoice(KernelNexthopChoice from, Map<HostId, Map<Integer, ResilientBuckets>> tables,
                                Map<HostId, Map<Integer, Set<Integer>>> stillBusy) {
        this(from.seeded, from.seeds, tables, from.vias);
        stillBusy.forEach((host, groups) -> groups.forEach((group, buckets) ->
                busy.computeIfAbsent(host, h -> new HashMap<>()).put(group, new HashSet<>(buckets))));
    }

    /**
     * As the hosts of {@code plan} are just programmed: every resilient group a new one.
     *
     * @param seeded the hosts whose {@code fib_multipath_hash_seed} is known
     * @param seeds  their seeds
     */
    public static KernelNexthopChoice programmed(ClusterSetPlan plan, Set<HostId> seeded, ToIntFunction<HostId> seeds) {
        Map<HostId, Map<Integer, ResilientBuckets>> tables = new HashMap<>();
        Map<HostId, Map<Integer, Ipv4Address>> vias = new HashMap<>();
        for (HostPlan host : plan.hosts().values()) {
            DataplanePlan effective = host.effective();
            Map<Integer, Ipv4Address> objects = new HashMap<>();
            for (NexthopObject object : effective.nexthops()) {
                objects.put(object.id(), object.via());
            }
            vias.put(host.id(), objects);
            Map<Integer, ResilientBuckets> groups = new HashMap<>();
            for (NexthopGroup group : effective.nexthopGroups()) {
                if (group.resilient()) {
                    groups.put(group.id(), ResilientBuckets.created(group.members(), group.buckets()));
                }
            }
            tables.put(host.id(), groups);
        }
        return new KernelNexthopChoice(Set.copyOf(seeded), seeds, tables, vias);
    }

    /**
     * The choice once every host's groups are replaced by those of {@code changed} (a gateway's
     * members withdrawn, or added back): each resilient table refilled, the buckets this choice saw
     * carrying packets kept busy.
     */
    public KernelNexthopChoice after(ClusterSetPlan changed) {
        Map<HostId, Map<Integer, ResilientBuckets>> moved = new HashMap<>();
        Map<HostId, Map<Integer, Set<Integer>>> stillBusy = new HashMap<>();
        for (HostPlan host : changed.hosts().values()) {
            Map<Integer, ResilientBuckets> before = tables.getOrDefault(host.id(), Map.of());
            Map<Integer, ResilientBuckets> groups = new HashMap<>();
            for (NexthopGroup group : host.effective().nexthopGroups()) {
                if (!group.resilient()) {
                    continue;
                }
                ResilientBuckets table = before.get(group.id());
                if (table == null) {
                    groups.put(group.id(), ResilientBuckets.created(group.members(), group.buckets()));
                    continue;
                }
                Set<Integer> used = busy.getOrDefault(host.id(), Map.of()).getOrDefault(group.id(), Set.of());
                ResilientBuckets refilled = table.replaced(group.members(), used);
                groups.put(group.id(), refilled);
                // A bucket stays busy until its idle timer runs out (longer than a failover lasts),
                // unless it moved: the kernel marks a moved bucket unused since its move.
                Set<Integer> kept = new HashSet<>();
                for (int bucket : used) {
                    if (table.members().get(bucket).equals(refilled.members().get(bucket))) {
                        kept.add(bucket);
                    }
                }
                stillBusy.computeIfAbsent(host.id(), h -> new HashMap<>()).put(group.id(), kept);
            }
            moved.put(host.id(), groups);
        }
        return new KernelNexthopChoice(this, moved, stillBusy);
    }

    /** The buckets of each host's resilient groups that carried a packet through this choice. */
    public Map<HostId, Map<Integer, Set<Integer>>> busy() {
        return busy;
    }

    /** The bucket table of a host's resilient group, as this choice holds it. */
    public Optional<ResilientBuckets> table(HostId host, int group) {
        return Optional.ofNullable(tables.getOrDefault(host, Map.of()).get(group));
    }

    @Override
    public synchronized int choose(HostId host, MultipathHashSettings hashing, boolean forwarded, CompiledRoute route,
                                   List<CompiledNexthop> offered, Packet packet) {
        if (!seeded.contains(host)) {
            return DOCUMENTED_HASH.choose(host, hashing, forwarded, route, offered, packet);
        }
        int hash = KernelMultipathHash.hash(hashing, seeds.applyAsInt(host), packet, forwarded);
        java.util.OptionalInt groupId = route.route().nexthopId();
        ResilientBuckets table = groupId.isPresent() ? tables.getOrDefault(host, Map.of()).get(groupId.getAsInt()) : null;
        if (table == null) {
            return KernelMultipathHash.select(offered, hash);
        }
        // With one member left the route has one path: the kernel takes it without choosing a bucket
        // (fib_select_path chooses only among several), so no bucket is marked used.
        if (table.members().stream().distinct().count() > 1) {
            busy.computeIfAbsent(host, h -> new HashMap<>()).computeIfAbsent(groupId.getAsInt(), g -> new HashSet<>()).add(table.bucket(hash));
        }
        Ipv4Address via = vias.getOrDefault(host, Map.of()).get(table.member(hash));
        for (int i = 0; i < offered.size(); i++) {
            if (offered.get(i).via().filter(v -> v.equals(via)).isPresent()) {
                return i;
            }
        }
        throw new IllegalStateException(host + ": bucket " + table.bucket(hash) + " of resilient group " + groupId.getAsInt()
                + " names nexthop " + table.member(hash) + " (" + via + "), which the route does not offer");
    }
}
