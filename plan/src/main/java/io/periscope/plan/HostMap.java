package io.periscope.plan;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;

/**
 * The hosts of a plan: an unmodifiable sorted map over two arrays (ids and plans in id order) that
 * no one else holds, so a plan may share it with another. A large cluster set has 105,000 hosts:
 * as a {@code TreeMap} and a {@code HashMap} beside it for lookups they were two map entries each
 * (objects the garbage collector copies), and building them was a tenth of planning. Here a lookup
 * by id hashes into a table of {@code int}s (positions in the arrays), made on the first lookup, which
 * the simulator and the matrix do hundreds of thousands of times; {@link #subMap}, {@link #headMap} and {@link #tailMap}
 * are views of a range of the same arrays.
 */
final class HostMap extends AbstractMap<HostId, HostPlan> implements SortedMap<HostId, HostPlan> {

    /** Shared by the whole map and its range views. */
    static final class Columns {
        final HostId[] ids;
        final HostPlan[] plans;
        final Comparator<? super HostId> comparator;
        /**
         * Open addressing: a position plus one, or 0 for a free slot; the length is a power of two.
         * Made on the first lookup by id: planning and writing a plan look up none. Immutable once
         * made; two threads that look up at once may each make one, equal.
         */
        private volatile int[] slots;

        Columns(HostId[] ids, HostPlan[] plans, Comparator<? super HostId> comparator) {
            this.ids = ids;
            this.plans = plans;
            this.comparator = comparator;
        }

        private int[] slots() {
            int[] made = slots;
            if (made == null) {
                int size = Integer.highestOneBit(Math.max(4, ids.length * 2 - 1)) << 1;
                made = new int[size];
                for (int i = 0; i < ids.length; i++) {
                    int slot = hash(ids[i]) & (size - 1);
                    while (made[slot] != 0) {
                        slot = (slot + 1) & (size - 1);
                    }
                    made[slot] = i + 1;
                }
                slots = made;
            }
            return made;
        }

        /** The position of {@code id}, or -1. */
        int indexOf(Object id) {
            Objects.requireNonNull(id);
            if (!(id instanceof HostId host)) {
                return -1;
            }
            int[] slots = slots();
            int mask = slots.length - 1;
            for (int slot = hash(host) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
                int index = slots[slot] - 1;
                if (ids[index].equals(id)) {
                    return index;
                }
            }
            return -1;
        }

        @SuppressWarnings("unchecked")
        int compare(HostId a, HostId b) {
            return comparator == null ? a.compareTo(b) : comparator.compare(a, b);
        }

        /** The first position in [from, to) whose id is not below {@code id}. */
        int lowerBound(HostId id, int from, int to) {
            Objects.requireNonNull(id);
            int lo = from;
            int hi = to;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (compare(ids[mid], id) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /**
         * Not {@link HostId#hashCode}: that combines the id's strings with 31s, as a string its
         * characters, so the ids of a generated set collide whole ({@code c1/ns-0/pod-9} and
         * {@code c0/ns-0/pod-970}, say: the 10,000 pods of the 10-cluster benchmark set hash to 2,920
         * codes, up to 9 ids on one), and a look-up compared a run of ids. Odd multipliers of 32 bits
         * keep the parts' small differences apart (every id of that set on its own code).
         */
        static int hash(HostId id) {
            int h = id.cluster().hashCode() * 0x9E3779B9 + id.namespace().hashCode();
            h = h * 0x85EBCA6B + id.name().hashCode();
            return h ^ (h >>> 16);
        }
    }

    private final Columns all;
    /** This map's range of the arrays: [from, to). */
    private final int from;
    private final int to;

    private HostMap(Columns all, int from, int to) {
        this.all = all;
        this.from = from;
        this.to = to;
    }

    /** A copy of {@code hosts}, in its order (which is its comparator's). */
    static HostMap copyOf(SortedMap<HostId, HostPlan> hosts) {
        HostId[] ids = new HostId[hosts.size()];
        HostPlan[] plans = new HostPlan[ids.length];
        int i = 0;
        for (Entry<HostId, HostPlan> host : hosts.entrySet()) {
            ids[i] = Objects.requireNonNull(host.getKey());
            plans[i] = host.getValue();
            i++;
        }
        return new HostMap(new Columns(ids, plans, hosts.comparator()), 0, ids.length);
    }

    /**
     * The hosts by id, sorted. {@code hosts} is sorted in place. Where two have the same id (a
     * cluster set that did not pass validation) the later one in {@code hosts} is kept, as a map
     * each host was put into in turn would keep it: every sort here is stable.
     */
    static HostMap byId(HostPlan[] hosts) {
        inClusterOrder(hosts, sortByCluster(hosts));
        int kept = 0;
        for (int i = 0; i < hosts.length; i++) {
            if (i + 1 < hosts.length && hosts[i].id().compareTo(hosts[i + 1].id()) == 0) {
                continue;
            }
            hosts[kept++] = hosts[i];
        }
        HostPlan[] plans = kept == hosts.length ? hosts : Arrays.copyOf(hosts, kept);
        HostId[] ids = new HostId[plans.length];
        for (int i = 0; i < plans.length; i++) {
            ids[i] = plans[i].id();
        }
        return new HostMap(new Columns(ids, plans, null), 0, ids.length);
    }

    /**
     * Sorts each run of hosts of one cluster (the planner plans a cluster's hosts together) in its
     * place. The clusters of a large set are often copies of one another (the same nodes and
     * deployments under other cluster names), and then the order that sorts one cluster's run sorts
     * the next one's too: that order is tried first and checked in one pass, and only a run it does
     * not sort (strictly: equal ids keep their own order) is sorted itself. Sorting 105,000 hosts
     * at once compared their names some two million times. The runs, in the array's order.
     */
    private static List<Run> sortByCluster(HostPlan[] hosts) {
        List<Run> runs = new ArrayList<>();
        int[] order = null;
        HostPlan[] run = new HostPlan[0];
        for (int start = 0; start < hosts.length; ) {
            String cluster = hosts[start].id().cluster();
            int end = start + 1;
            while (end < hosts.length && hosts[end].id().cluster().equals(cluster)) {
                end++;
            }
            int length = end - start;
            if (run.length < length) {
                run = new HostPlan[length];
            }
            if (!sortedInOrder(hosts, start, length, order, run)) {
                order = sortRun(hosts, start, length, run);
            }
            System.arraycopy(run, 0, hosts, start, length);
            runs.add(new Run(cluster, start, length));
            start = end;
        }
        return runs;
    }

    /** The hosts of one cluster, together in the array from {@code start} on. */
    private record Run(String cluster, int start, int length) {
    }

    /**
     * Puts the sorted {@code runs} of {@code hosts} in order. Ids compare by cluster first, so when
     * no cluster has two runs (the planner's order) that is the runs in the order of their clusters'
     * names, one after the other; otherwise it is a stable merge of the whole. A merge of a large
     * set's 105,000 hosts compared every one with its neighbour to find the runs again, and its
     * on-stack compilations were thrown away and made again in every planning.
     */
    private static void inClusterOrder(HostPlan[] hosts, List<Run> runs) {
        Run[] byCluster = runs.toArray(Run[]::new);
        Arrays.sort(byCluster, Comparator.comparing(Run::cluster));
        for (int i = 1; i < byCluster.length; i++) {
            if (byCluster[i - 1].cluster().equals(byCluster[i].cluster())) {
                Arrays.sort(hosts, (a, b) -> a.id().compareTo(b.id()));
                return;
            }
        }
        HostPlan[] ordered = new HostPlan[hosts.length];
        int filled = 0;
        for (Run run : byCluster) {
            System.arraycopy(hosts, run.start(), ordered, filled, run.length());
            filled += run.length();
        }
        System.arraycopy(ordered, 0, hosts, 0, hosts.length);
    }

    /** Whether {@code order}, applied to the run at {@code start}, sorts it strictly; the run so ordered is left in {@code run}. */
    private static boolean sortedInOrder(HostPlan[] hosts, int start, int length, int[] order, HostPlan[] run) {
        if (order == null || order.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            run[i] = hosts[start + order[i]];
        }
        for (int i = 1; i < length; i++) {
            if (run[i - 1].id().compareTo(run[i].id()) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Sorts the run at {@code start} (stably) into {@code run}; the order that does it. */
    private static int[] sortRun(HostPlan[] hosts, int start, int length, HostPlan[] run) {
        Integer[] positions = new Integer[length];
        for (int i = 0; i < length; i++) {
            positions[i] = i;
        }
        Arrays.sort(positions, (a, b) -> hosts[start + a].id().compareTo(hosts[start + b].id()));
        int[] order = new int[length];
        for (int i = 0; i < length; i++) {
            order[i] = positions[i];
            run[i] = hosts[start + order[i]];
        }
        return order;
    }

    private boolean inRange(int index) {
        return index >= from && index < to;
    }

    @Override
    public int size() {
        return to - from;
    }

    @Override
    public boolean containsKey(Object key) {
        return inRange(all.indexOf(key));
    }

    @Override
    public HostPlan get(Object key) {
        int index = all.indexOf(key);
        return inRange(index) ? all.plans[index] : null;
    }

    @Override
    public Comparator<? super HostId> comparator() {
        return all.comparator;
    }

    @Override
    public SortedMap<HostId, HostPlan> subMap(HostId fromKey, HostId toKey) {
        if (all.compare(fromKey, toKey) > 0) {
            throw new IllegalArgumentException("fromKey > toKey");
        }
        return new HostMap(all, all.lowerBound(fromKey, from, to), all.lowerBound(toKey, from, to));
    }

    @Override
    public SortedMap<HostId, HostPlan> headMap(HostId toKey) {
        return new HostMap(all, from, all.lowerBound(toKey, from, to));
    }

    @Override
    public SortedMap<HostId, HostPlan> tailMap(HostId fromKey) {
        return new HostMap(all, all.lowerBound(fromKey, from, to), to);
    }

    @Override
    public HostId firstKey() {
        if (from == to) {
            throw new NoSuchElementException();
        }
        return all.ids[from];
    }

    @Override
    public HostId lastKey() {
        if (from == to) {
            throw new NoSuchElementException();
        }
        return all.ids[to - 1];
    }

    /** Positions from..to, as whatever {@code at} makes of one. */
    private abstract class RangeIterator<T> implements Iterator<T> {
        private int next = from;

        abstract T at(int index);

        @Override
        public boolean hasNext() {
            return next < to;
        }

        @Override
        public T next() {
            if (next >= to) {
                throw new NoSuchElementException();
            }
            return at(next++);
        }
    }

    @Override
    public Set<HostId> keySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<HostId> iterator() {
                return new RangeIterator<>() {
                    @Override
                    HostId at(int index) {
                        return all.ids[index];
                    }
                };
            }

            @Override
            public boolean contains(Object o) {
                return containsKey(o);
            }

            @Override
            public int size() {
                return HostMap.this.size();
            }
        };
    }

    @Override
    public Collection<HostPlan> values() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<HostPlan> iterator() {
                return new RangeIterator<>() {
                    @Override
                    HostPlan at(int index) {
                        return all.plans[index];
                    }
                };
            }

            @Override
            public int size() {
                return HostMap.this.size();
            }
        };
    }

    @Override
    public Set<Entry<HostId, HostPlan>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<HostId, HostPlan>> iterator() {
                return new RangeIterator<>() {
                    @Override
                    Entry<HostId, HostPlan> at(int index) {
                        return new SimpleImmutableEntry<>(all.ids[index], all.plans[index]);
                    }
                };
            }

            @Override
            public int size() {
                return HostMap.this.size();
            }
        };
    }
}
