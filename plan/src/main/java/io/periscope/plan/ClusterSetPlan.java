package io.periscope.plan;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ovn.OvnTopology;

import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The planner's output for a whole cluster set: every host's plan, how hosts are wired together,
 * the Endpoints the gateways publish, the DNS answers Lighthouse would give, and the OVN logical
 * network of every OVN-Kubernetes cluster.
 */
public record ClusterSetPlan(ClusterSet clusterSet, List<Endpoint> endpoints, SortedMap<HostId, HostPlan> hosts,
                             List<Segment> segments, List<ServiceRecord> serviceRecords, GlobalnetAllocations allocations,
                             List<OvnTopology> ovn) {

    /** A plan without OVN-Kubernetes clusters. */
    public ClusterSetPlan(ClusterSet clusterSet, List<Endpoint> endpoints, SortedMap<HostId, HostPlan> hosts,
                          List<Segment> segments, List<ServiceRecord> serviceRecords, GlobalnetAllocations allocations) {
        this(clusterSet, endpoints, hosts, segments, serviceRecords, allocations, List.of());
    }

    /** A plan without Globalnet allocations (Globalnet off, or a hand-built plan). */
    public ClusterSetPlan(ClusterSet clusterSet, List<Endpoint> endpoints, SortedMap<HostId, HostPlan> hosts,
                          List<Segment> segments, List<ServiceRecord> serviceRecords) {
        this(clusterSet, endpoints, hosts, segments, serviceRecords, GlobalnetAllocations.NONE);
    }

    public ClusterSetPlan {
        endpoints = List.copyOf(endpoints);
        // Copied once: a plan made from another plan's hosts (the planner adds the allocations to
        // the plan it built) keeps them as they are, 105,000 of them in a large cluster set.
        hosts = hosts instanceof FrozenHosts ? hosts : new FrozenHosts(new java.util.TreeMap<>(hosts));
        segments = List.copyOf(segments);
        serviceRecords = List.copyOf(serviceRecords);
        ovn = List.copyOf(ovn);
    }

    /** The OVN logical network of an OVN-Kubernetes cluster; empty for any other cluster. */
    public Optional<OvnTopology> ovn(String cluster) {
        return ovn.stream().filter(t -> t.cluster().equals(cluster)).findFirst();
    }

    public Optional<HostPlan> host(HostId id) {
        return Optional.ofNullable(hosts.get(id));
    }

    public Optional<Segment> segment(String name) {
        return segments.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The hosts of a plan: an unmodifiable sorted map that no one else holds, so a plan may share it with another. */
    private static final class FrozenHosts extends java.util.AbstractMap<HostId, HostPlan> implements SortedMap<HostId, HostPlan> {

        private final SortedMap<HostId, HostPlan> hosts;
        /**
         * The same hosts by hash, for {@link #get} and {@link #containsKey}: the simulator and the matrix
         * look hosts up by id hundreds of thousands of times, and the sorted map's lookup compares ids
         * some fourteen times each in a set of 10,000 pods.
         */
        private final java.util.Map<HostId, HostPlan> byId;

        FrozenHosts(java.util.TreeMap<HostId, HostPlan> own) {
            this.hosts = java.util.Collections.unmodifiableSortedMap(own);
            this.byId = new java.util.HashMap<>(own);
        }

        @Override
        public java.util.Comparator<? super HostId> comparator() {
            return hosts.comparator();
        }

        @Override
        public SortedMap<HostId, HostPlan> subMap(HostId fromKey, HostId toKey) {
            return hosts.subMap(fromKey, toKey);
        }

        @Override
        public SortedMap<HostId, HostPlan> headMap(HostId toKey) {
            return hosts.headMap(toKey);
        }

        @Override
        public SortedMap<HostId, HostPlan> tailMap(HostId fromKey) {
            return hosts.tailMap(fromKey);
        }

        @Override
        public HostId firstKey() {
            return hosts.firstKey();
        }

        @Override
        public HostId lastKey() {
            return hosts.lastKey();
        }

        @Override
        public int size() {
            return hosts.size();
        }

        @Override
        public boolean containsKey(Object key) {
            return byId.containsKey(java.util.Objects.requireNonNull(key));
        }

        @Override
        public HostPlan get(Object key) {
            return byId.get(java.util.Objects.requireNonNull(key));
        }

        @Override
        public java.util.Set<HostId> keySet() {
            return hosts.keySet();
        }

        @Override
        public java.util.Collection<HostPlan> values() {
            return hosts.values();
        }

        @Override
        public java.util.Set<Entry<HostId, HostPlan>> entrySet() {
            return hosts.entrySet();
        }
    }
}
