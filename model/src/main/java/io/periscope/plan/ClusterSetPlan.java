package io.periscope.plan;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.topology.ClusterSet;

import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The planner's output for a whole cluster set: every host's plan, how hosts are wired together,
 * the Endpoints the gateways publish, and the DNS answers Lighthouse would give.
 */
public record ClusterSetPlan(ClusterSet clusterSet, List<Endpoint> endpoints, SortedMap<HostId, HostPlan> hosts,
                             List<Segment> segments, List<ServiceRecord> serviceRecords, GlobalnetAllocations allocations) {

    /** A plan without Globalnet allocations (Globalnet off, or a hand-built plan). */
    public ClusterSetPlan(ClusterSet clusterSet, List<Endpoint> endpoints, SortedMap<HostId, HostPlan> hosts,
                          List<Segment> segments, List<ServiceRecord> serviceRecords) {
        this(clusterSet, endpoints, hosts, segments, serviceRecords, GlobalnetAllocations.NONE);
    }

    public ClusterSetPlan {
        endpoints = List.copyOf(endpoints);
        hosts = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(hosts));
        segments = List.copyOf(segments);
        serviceRecords = List.copyOf(serviceRecords);
    }

    public Optional<HostPlan> host(HostId id) {
        return Optional.ofNullable(hosts.get(id));
    }

    public Optional<Segment> segment(String name) {
        return segments.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
