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
    private final Map<Service, Boolean> exportedServices = new IdentityHashMap<>();

    ClusterIndex(Cluster cluster) {
        for (ServiceExport export : cluster.exports()) {
            exported.add(export.namespace() + "/" + export.name());
        }
        // Pods of a namespace grouped by their labels: a selector is matched once per distinct set
        // of labels (an app's replicas share theirs) instead of once per pod and service.
        Map<String, Map<Map<String, String>, List<Integer>>> podsByNamespace = new HashMap<>();
        List<Pod> pods = cluster.pods();
        for (int i = 0; i < pods.size(); i++) {
            Pod pod = pods.get(i);
            if (!pod.hostNetwork()) {
                podsByNamespace.computeIfAbsent(pod.namespace(), n -> new java.util.LinkedHashMap<>())
                        .computeIfAbsent(pod.labels(), l -> new ArrayList<>()).add(i);
            }
        }
        for (Service service : cluster.services()) {
            List<Integer> selected = new ArrayList<>();
            int groups = 0;
            if (!service.selector().isEmpty()) {
                for (Map.Entry<Map<String, String>, List<Integer>> group
                        : podsByNamespace.getOrDefault(service.namespace(), Map.of()).entrySet()) {
                    if (service.selector().matches(group.getKey())) {
                        selected.addAll(group.getValue());
                        groups++;
                    }
                }
            }
            if (groups > 1) {
                // Back in file order, which the chains and records list endpoints in.
                java.util.Collections.sort(selected);
            }
            List<Pod> endpointPods = new ArrayList<>(selected.size());
            for (int i : selected) {
                endpointPods.add(pods.get(i));
            }
            endpoints.put(service, List.copyOf(endpointPods));
        }
    }

    boolean isExported(Service service) {
        // Asked for every service by every gateway: the answer is kept per service object.
        Boolean known = exportedServices.get(service);
        if (known == null) {
            known = exported.contains(service.namespace() + "/" + service.name());
            exportedServices.put(service, known);
        }
        return known;
    }

    /** The same answer as {@link Cluster#endpointsOf}, from the index. */
    List<Pod> endpointsOf(Service service) {
        return endpoints.getOrDefault(service, List.of());
    }
}
