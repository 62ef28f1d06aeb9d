package io.periscope.planner;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;

import java.util.Arrays;
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
    private final List<Pod> pods;
    /** The positions of each namespace's pods (those not on the host network), grouped by their labels. */
    private final Map<String, Map<Map<String, String>, Positions>> podsByNamespace;
    /** {@link #podsIn}'s answers, made from the groups when first asked: only Globalnet's GlobalEgressIPs ask. */
    private final Map<String, List<Pod>> podsIn = new HashMap<>();

    ClusterIndex(Cluster cluster) {
        this.pods = cluster.pods();
        for (ServiceExport export : cluster.exports()) {
            exported.add(export.namespace() + "/" + export.name());
        }
        // Pods of a namespace grouped by their labels: a selector is matched once per distinct set
        // of labels (an app's replicas share theirs) instead of once per pod and service. Positions
        // as ints: a large set indexes 100,000 pods, and boxed they were an object each.
        podsByNamespace = groupedByLabels(pods);
        for (Service service : cluster.services()) {
            index(service, podsByNamespace, pods);
        }
    }

    private static Map<String, Map<Map<String, String>, Positions>> groupedByLabels(List<Pod> pods) {
        Map<String, Map<Map<String, String>, Positions>> podsByNamespace = new HashMap<>();
        for (int i = 0; i < pods.size(); i++) {
            Pod pod = pods.get(i);
            if (!pod.hostNetwork()) {
                podsByNamespace.computeIfAbsent(pod.namespace(), n -> new java.util.LinkedHashMap<>())
                        .computeIfAbsent(pod.labels(), l -> new Positions()).add(i);
            }
        }
        return podsByNamespace;
    }

    /** The pods {@code service} selects, from the groups (a method of its own, compiled as such rather than on the stack of the loop). */
    private void index(Service service, Map<String, Map<Map<String, String>, Positions>> podsByNamespace, List<Pod> pods) {
        Positions selected = null;
        boolean several = false;
        if (!service.selector().isEmpty()) {
            for (Map.Entry<Map<String, String>, Positions> group
                    : podsByNamespace.getOrDefault(service.namespace(), Map.of()).entrySet()) {
                if (service.selector().matches(group.getKey())) {
                    if (selected == null) {
                        selected = group.getValue();
                    } else {
                        if (!several) {
                            selected = selected.copy();
                            several = true;
                        }
                        selected.addAll(group.getValue());
                    }
                }
            }
        }
        if (selected == null) {
            endpoints.put(service, List.of());
            return;
        }
        if (several) {
            // Back in file order, which the chains and records list endpoints in.
            Arrays.sort(selected.values, 0, selected.size);
        }
        Pod[] endpointPods = new Pod[selected.size];
        for (int i = 0; i < selected.size; i++) {
            endpointPods[i] = pods.get(selected.values[i]);
        }
        endpoints.put(service, List.of(endpointPods));
    }

    /** Positions of pods in the cluster's list, in the order added. */
    private static final class Positions {
        private int[] values = new int[4];
        private int size;

        void add(int position) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = position;
        }

        void addAll(Positions more) {
            for (int i = 0; i < more.size; i++) {
                add(more.values[i]);
            }
        }

        Positions copy() {
            Positions copy = new Positions();
            copy.values = Arrays.copyOf(values, Math.max(4, size));
            copy.size = size;
            return copy;
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

    /**
     * The pods of {@code namespace} that have addresses of their own (not on the host network), in
     * the cluster's order: a GlobalEgressIP selects among its namespace's pods, and a large set's
     * 20 GlobalEgressIPs per cluster went through all 2,000 of the cluster's pods each.
     */
    List<Pod> podsIn(String namespace) {
        List<Pod> known = podsIn.get(namespace);
        if (known == null) {
            // The namespace's label groups together, back in the cluster's order: no lookup per pod.
            Positions all = new Positions();
            for (Positions group : podsByNamespace.getOrDefault(namespace, Map.of()).values()) {
                all.addAll(group);
            }
            Arrays.sort(all.values, 0, all.size);
            Pod[] inOrder = new Pod[all.size];
            for (int i = 0; i < all.size; i++) {
                inOrder[i] = pods.get(all.values[i]);
            }
            known = List.of(inOrder);
            podsIn.put(namespace, known);
        }
        return known;
    }

    /** The same answer as {@link Cluster#endpointsOf}, from the index. */
    List<Pod> endpointsOf(Service service) {
        return endpoints.getOrDefault(service, List.of());
    }
}
