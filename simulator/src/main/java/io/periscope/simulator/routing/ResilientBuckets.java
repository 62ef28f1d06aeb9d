package io.periscope.simulator.routing;

import io.periscope.plan.routing.NexthopGroup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bucket table of a resilient nexthop group as Linux keeps it ({@code net/ipv4/nexthop.c}): a
 * flow takes bucket {@code hash % buckets}, and each bucket names one member.
 *
 * <p>Each member wants {@code round(buckets * cumulative weight / total) - previous} buckets. A table
 * is filled, and refilled after the group changes, by walking the buckets in index order: a bucket
 * whose member left the group is moved at once, a bucket of a member holding more than it wants is
 * moved only when idle (no packet within the idle timer, 120 s by default; a bucket that never
 * carried a packet is idle), and a moved bucket goes to the first member still short of buckets,
 * in <em>reverse</em> member order (the kernel puts each short member at the head of its list).
 * Checked against the kernel's {@code ip nexthop bucket show} in
 * {@code ResilientBucketsMoveAsTheKernelMovesThem}.
 *
 * @param members the nexthop id each bucket names
 */
public record ResilientBuckets(List<Integer> members) {

    public ResilientBuckets {
        members = List.copyOf(members);
    }

    /** A new group's table: every bucket empty, so every bucket is filled. */
    public static ResilientBuckets created(List<NexthopGroup.Member> group, int buckets) {
        Integer[] none = new Integer[buckets];
        return fill(none, group, Set.of());
    }

    /**
     * The table after the group was replaced by {@code group} (a member withdrawn or added back).
     *
     * @param busy the buckets that carried packets within the idle timer; they keep their member
     *             unless it left the group
     */
    public ResilientBuckets replaced(List<NexthopGroup.Member> group, Set<Integer> busy) {
        return fill(members.toArray(Integer[]::new), group, busy);
    }

    /** The bucket a 31-bit multipath hash selects. */
    public int bucket(int hash31) {
        return Integer.remainderUnsigned(hash31, members.size());
    }

    public int member(int hash31) {
        return members.get(bucket(hash31));
    }

    private static ResilientBuckets fill(Integer[] table, List<NexthopGroup.Member> group, Set<Integer> busy) {
        int buckets = table.length;
        long total = group.stream().mapToLong(m -> Math.max(1, m.weight())).sum();
        Map<Integer, Integer> wants = new HashMap<>();
        Map<Integer, Integer> count = new HashMap<>();
        long cumulative = 0;
        long previous = 0;
        for (NexthopGroup.Member member : group) {
            cumulative += Math.max(1, member.weight());
            long upper = (buckets * cumulative + total / 2) / total;
            wants.put(member.nexthopId(), (int) (upper - previous));
            previous = upper;
            count.put(member.nexthopId(), 0);
        }
        for (Integer id : table) {
            if (id != null && count.containsKey(id)) {
                count.merge(id, 1, Integer::sum);
            }
        }
        LinkedList<Integer> shortOf = new LinkedList<>();
        for (NexthopGroup.Member member : group) {
            if (count.get(member.nexthopId()) < wants.get(member.nexthopId())) {
                shortOf.addFirst(member.nexthopId());
            }
        }
        for (int i = 0; i < buckets && !shortOf.isEmpty(); i++) {
            Integer current = table[i];
            boolean orphan = current == null || !count.containsKey(current);
            boolean over = !orphan && count.get(current) > wants.get(current);
            if (!orphan && !(over && !busy.contains(i))) {
                continue;
            }
            int next = shortOf.getFirst();
            if (!orphan) {
                count.merge(current, -1, Integer::sum);
            }
            table[i] = next;
            count.merge(next, 1, Integer::sum);
            if (count.get(next) >= wants.get(next)) {
                shortOf.removeFirst();
            }
        }
        List<Integer> filled = new ArrayList<>(Arrays.asList(table));
        if (filled.contains(null)) {
            throw new IllegalStateException("a resilient group of " + buckets + " buckets left some empty: " + group);
        }
        return new ResilientBuckets(filled);
    }
}
