package io.periscope.planner;

import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Set;
import java.util.SortedMap;

/**
 * The planned hosts sorted by id once, handed to {@link io.periscope.plan.ClusterSetPlan} as a sorted
 * map: its {@code TreeMap} copy of a sorted map is built in one pass from the entries in order, where
 * putting 105,000 hosts one by one walks and rebalances the tree for each. Only what that copy reads
 * (size, comparator, the entries in order) is supported.
 */
final class SortedHosts extends AbstractMap<HostId, HostPlan> implements SortedMap<HostId, HostPlan> {

    private final HostPlan[] hosts;

    private SortedHosts(HostPlan[] hosts) {
        this.hosts = hosts;
    }

    /**
     * The hosts in id order. Where two have the same id (a cluster set that did not pass validation)
     * the one planned last is kept, as a map that each host was put into in turn would keep it: the
     * sort is stable.
     */
    static SortedHosts of(HostPlan[] hosts) {
        Arrays.sort(hosts, Comparator.comparing(HostPlan::id));
        int kept = 0;
        for (int i = 0; i < hosts.length; i++) {
            if (i + 1 < hosts.length && hosts[i].id().compareTo(hosts[i + 1].id()) == 0) {
                continue;
            }
            hosts[kept++] = hosts[i];
        }
        return new SortedHosts(kept == hosts.length ? hosts : Arrays.copyOf(hosts, kept));
    }

    @Override
    public Comparator<? super HostId> comparator() {
        return null;
    }

    @Override
    public int size() {
        return hosts.length;
    }

    @Override
    public Set<Entry<HostId, HostPlan>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<HostId, HostPlan>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < hosts.length;
                    }

                    @Override
                    public Entry<HostId, HostPlan> next() {
                        HostPlan host = hosts[next++];
                        return new SimpleImmutableEntry<>(host.id(), host);
                    }
                };
            }

            @Override
            public int size() {
                return hosts.length;
            }
        };
    }

    @Override
    public SortedMap<HostId, HostPlan> subMap(HostId fromKey, HostId toKey) {
        throw new UnsupportedOperationException("only copied");
    }

    @Override
    public SortedMap<HostId, HostPlan> headMap(HostId toKey) {
        throw new UnsupportedOperationException("only copied");
    }

    @Override
    public SortedMap<HostId, HostPlan> tailMap(HostId fromKey) {
        throw new UnsupportedOperationException("only copied");
    }

    @Override
    public HostId firstKey() {
        return hosts[0].id();
    }

    @Override
    public HostId lastKey() {
        return hosts[hosts.length - 1].id();
    }
}
