package io.periscope.planner;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lookups the planners make per service and per pod, computed once per cluster: which services are
 * exported and which pods back each service. Without it planning is quadratic in cluster size.
 */
final class ClusterIndex {

    private final Set<String> exported = new HashSet<>();
    private final Map<Service, List<Pod>> endpoints = new IdentityHashMap<>();

    ClusterIndex(Cluster cluster) {
        for (ServiceExport export : cluster.exports()) {
            exported.add(export.namespace() + "/" + export.name());
        }
        Map<String, List<Pod>> podsByNamespace = new HashMap<>();
        for (Pod pod : cluster.pods()) {
            if (!pod.hostNetwork()) {
                podsByNamespace.computeIfAbsent(pod.namespace(), n -> new ArrayList<>()).add(pod);
            }
        }
        for (Service service : cluster.services()) {
            List<Pod> selected = new ArrayList<>();
            if (!service.selector().isEmpty()) {
                for (Pod pod : podsByNamespace.getOrDefault(service.namespace(), List.of())) {
                    if (service.selector().matches(pod.labels())) {
                        selected.add(pod);
                    }
                }
            }
            endpoints.put(service, List.copyOf(selected));
        }
    }

    boolean isExported(Service service) {
        return exported.contains(service.namespace() + "/" + service.name());
    }

    /** The same answer as {@link Cluster#endpointsOf}, from the index. */
    List<Pod> endpointsOf(Service service) {
        return endpoints.getOrDefault(service, List.of());
    }
}
