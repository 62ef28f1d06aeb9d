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
        hosts = hosts instanceof HostMap ? hosts : HostMap.copyOf(hosts);
        segments = List.copyOf(segments);
        serviceRecords = List.copyOf(serviceRecords);
        ovn = List.copyOf(ovn);
    }

    /**
     * {@code hosts} as a plan's hosts, by id: what the planner hands a plan, so that the plan need
     * not copy them again. Takes {@code hosts} over (the caller lets go of the array) and sorts it in place; where two have the same id (a cluster set
     * that did not pass validation) the later one is kept, as a map each was put into in turn keeps it.
     */
    public static SortedMap<HostId, HostPlan> hostsById(HostPlan[] hosts) {
        return HostMap.byId(hosts);
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
}
