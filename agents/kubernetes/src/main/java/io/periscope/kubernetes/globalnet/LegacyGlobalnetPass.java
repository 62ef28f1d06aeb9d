package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.StatusGlobalAddresses;
import io.periscope.model.globalnet.AllocationCondition;
import io.periscope.model.globalnet.AllocationReason;
import io.periscope.model.globalnet.AllocationResult;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The first Globalnet design (seed 000, {@code globalnet_mode: legacy}) without I/O: every exported
 * ClusterIP service, every pod not on the host network and every node gets one global IP, recorded
 * in its {@code submariner.io/globalIp} annotation. Requests are made in the order the topology
 * file's IPAM ({@code GlobalnetAllocator}) uses: exports, then pods, then nodes, so a cluster whose
 * objects all exist when the controller starts gets exactly the addresses the planner computes.
 *
 * <p>As with Globalnet 2.0's status, the annotations are the record: {@link #restore} takes every
 * annotated address back (oldest objects first) before anything new is handed out, and an object
 * whose annotation cannot be taken back loses it and gets a new address.
 */
public final class LegacyGlobalnetPass {

    static final String SERVICE = "Service";
    static final String POD = "Pod";
    static final String NODE = "Node";

    private LegacyGlobalnetPass() {
    }

    /** Takes back every annotated address; returns the annotations to remove for those that could not be. */
    public static List<GlobalnetAction> restore(AllocationBook book, LiveObjects live) {
        List<GlobalnetAction> actions = new ArrayList<>();
        List<HasMetadata> annotated = new ArrayList<>();
        annotated.addAll(live.services());
        annotated.addAll(live.pods());
        annotated.addAll(live.nodes());
        for (HasMetadata object : byAge(annotated)) {
            Optional<Ipv4Address> held = StatusGlobalAddresses.annotated(object);
            if (held.isEmpty()) {
                continue;
            }
            ObjectKey key = key(object);
            if (book.restore(key, uid(object), List.of(held.get())) instanceof AllocationResult.Failed) {
                actions.add(new GlobalnetAction.Annotate(key, uid(object), Optional.empty()));
            }
        }
        return actions;
    }

    /**
     * One pass: releases what is no longer wanted, allocates for what lacks an address, and returns
     * the annotations to write or remove, and InvalidInput for every GlobalEgressIP (the first design has none).
     */
    public static List<GlobalnetAction> run(AllocationBook book, LiveObjects live, Cluster cluster, Instant now) {
        Map<ObjectKey, HasMetadata> objects = new HashMap<>();
        live.services().forEach(o -> objects.put(key(o), o));
        live.pods().forEach(o -> objects.put(key(o), o));
        live.nodes().forEach(o -> objects.put(key(o), o));

        // What should have an address, in the IPAM's order.
        Map<ObjectKey, String> wanted = new LinkedHashMap<>();
        for (ServiceExport export : cluster.exports()) {
            Optional<Service> service = cluster.service(export.namespace(), export.name());
            if (service.isPresent() && !service.get().headless()) {
                wanted.put(new ObjectKey(SERVICE, export.namespace(), export.name()), "");
            }
        }
        for (Pod pod : cluster.pods()) {
            if (!pod.hostNetwork()) {
                wanted.put(new ObjectKey(POD, pod.namespace(), pod.name()), "");
            }
        }
        for (Node node : cluster.nodes()) {
            wanted.put(new ObjectKey(NODE, "", node.name()), "");
        }

        List<GlobalnetAction> actions = new ArrayList<>();
        for (ObjectKey key : book.holders()) {
            HasMetadata object = objects.get(key);
            if (object == null || !wanted.containsKey(key) || !uid(object).equals(book.holding(key).orElseThrow().uid())) {
                book.release(key);
            }
        }
        for (ObjectKey key : wanted.keySet()) {
            HasMetadata object = objects.get(key);
            if (object == null) {
                continue;
            }
            Optional<AllocationBook.Holding> holding = book.holding(key);
            Optional<Ipv4Address> address = holding.map(h -> h.addresses().getFirst());
            if (address.isEmpty() && book.allocate(key, uid(object), 1) instanceof AllocationResult.Allocated allocated) {
                address = Optional.of(allocated.addresses().getFirst());
            }
            // A full pool leaves the object without an annotation; a pass after a release gives it one.
            if (!address.equals(StatusGlobalAddresses.annotated(object))) {
                actions.add(new GlobalnetAction.Annotate(key, uid(object), address));
            }
        }
        // An annotation on an object that should have none (an export deleted, a pod moved to the host network).
        for (Map.Entry<ObjectKey, HasMetadata> entry : objects.entrySet()) {
            if (!wanted.containsKey(entry.getKey()) && StatusGlobalAddresses.annotated(entry.getValue()).isPresent()) {
                actions.add(new GlobalnetAction.Annotate(entry.getKey(), uid(entry.getValue()), Optional.empty()));
            }
        }
        for (GlobalEgressIPResource object : live.globalEgressIPs()) {
            ObjectKey key = ObjectKey.of(object);
            AllocationCondition condition = AllocationCondition.failure(AllocationReason.INVALID_INPUT, key
                    + " has no effect with legacy Globalnet, which gives every pod its own global IP");
            var old = object.getStatus() == null ? List.<io.fabric8.kubernetes.api.model.Condition>of() : object.getStatus().conditions();
            var conditions = GlobalnetPass.merge(old, GlobalnetPass.condition(condition, now));
            if (!conditions.equals(old) || object.getStatus() != null && !object.getStatus().allocatedIPs().isEmpty()) {
                actions.add(new GlobalnetAction.WriteEgressStatus(key, uid(object), new AllocationStatus(conditions, List.of())));
            }
        }
        return actions;
    }

    private static ObjectKey key(HasMetadata object) {
        String kind = switch (object) {
            case io.fabric8.kubernetes.api.model.Service s -> SERVICE;
            case io.fabric8.kubernetes.api.model.Pod p -> POD;
            case io.fabric8.kubernetes.api.model.Node n -> NODE;
            default -> object.getKind();
        };
        String namespace = object.getMetadata().getNamespace();
        return new ObjectKey(kind, namespace == null ? "" : namespace, object.getMetadata().getName());
    }

    private static String uid(HasMetadata object) {
        return object.getMetadata().getUid() == null ? "" : object.getMetadata().getUid();
    }

    private static List<HasMetadata> byAge(List<HasMetadata> objects) {
        return objects.stream().sorted(Comparator.comparing((HasMetadata o) -> o.getMetadata().getCreationTimestamp() == null ? ""
                        : o.getMetadata().getCreationTimestamp())
                .thenComparing(o -> key(o).requester())).toList();
    }
}
