package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPSpec;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPSpec;
import io.periscope.kubernetes.crd.GlobalIngressIPStatus;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.modelbuilder.LabelSelectorConversion;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.StatusGlobalAddresses;
import io.periscope.model.globalnet.AllocationCondition;
import io.periscope.model.globalnet.AllocationReason;
import io.periscope.model.globalnet.AllocationResult;
import io.periscope.model.globalnet.ClusterGlobalEgressIP;
import io.periscope.model.globalnet.GlobalIngressIP;
import io.periscope.model.globalnet.HeadlessPodOwners;
import io.periscope.model.globalnet.SliceShortfall;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Globalnet controller's logic, without I/O: from the objects seen and the allocation book,
 * what to create, delete and write. Level-driven: a pass looks at everything, so a lost event or a
 * failed write is repaired by the next one.
 *
 * <p>{@link #restore} runs once per leadership term, before any pass: every address in every
 * object's status goes back into the pool (oldest objects first, each all or nothing) before
 * anything new is allocated, which is what keeps an address from being given twice after a restart
 * (upstream submariner#4122). An object whose addresses cannot be taken back (outside the pool, or
 * claimed by an older object) is told so ({@code ReserveAllocatedIPsFailed}) and gets new ones.
 */
public final class GlobalnetPass {

    private static final String CLUSTER_EGRESS = "ClusterGlobalEgressIP";
    private static final String EGRESS = "GlobalEgressIP";
    private static final String INGRESS = "GlobalIngressIP";
    private static final String GATEWAY = "Gateway";

    private GlobalnetPass() {
    }

    /** Restores every allocation found in status; returns the statuses to correct for those that failed. */
    public static List<GlobalnetAction> restore(AllocationBook book, LiveObjects live, Instant now) {
        List<GlobalnetAction> actions = new ArrayList<>();
        for (ClusterGlobalEgressIPResource object : byAge(live.clusterGlobalEgressIPs())) {
            List<String> held = object.getStatus() == null ? List.of() : object.getStatus().allocatedIPs();
            restoreOne(book, object, held, now).ifPresent(condition -> actions.add(new GlobalnetAction.WriteEgressStatus(
                    ObjectKey.of(object), uid(object), new AllocationStatus(merge(object.getStatus() == null ? List.of()
                            : object.getStatus().conditions(), condition), List.of()))));
        }
        for (GlobalEgressIPResource object : byAge(live.globalEgressIPs())) {
            List<AllocationStatus.GatewaySlice> slices = object.getStatus() == null || object.getStatus().gatewaySlices() == null
                    ? List.of() : object.getStatus().gatewaySlices();
            Optional<Condition> failed = Optional.empty();
            if (slices.isEmpty()) {
                List<String> held = object.getStatus() == null ? List.of() : object.getStatus().allocatedIPs();
                failed = restoreOne(book, ObjectKey.of(object), uid(object), held, now);
            } else {
                // Per-gateway ownership: each slice is its own holding in the book, taken back on its own,
                // every one of them (a slice that cannot be taken back does not cost the others theirs).
                for (AllocationStatus.GatewaySlice slice : slices) {
                    Optional<Condition> sliceFailed = restoreOne(book, sliceKey(ObjectKey.of(object), slice.gateway()), uid(object),
                            slice.allocatedIPs(), now);
                    failed = failed.or(() -> sliceFailed);
                }
            }
            failed.ifPresent(condition -> actions.add(new GlobalnetAction.WriteEgressStatus(
                    ObjectKey.of(object), uid(object), new AllocationStatus(merge(object.getStatus() == null ? List.of()
                            : object.getStatus().conditions(), condition), List.of()))));
        }
        for (GlobalIngressIPResource object : byAge(live.globalIngressIPs())) {
            String held = object.getStatus() == null ? null : object.getStatus().allocatedIP();
            restoreOne(book, object, held == null || held.isEmpty() ? List.of() : List.of(held), now).ifPresent(condition ->
                    actions.add(new GlobalnetAction.WriteIngressStatus(ObjectKey.of(object), uid(object), new GlobalIngressIPStatus(
                            merge(object.getStatus().conditions(), condition), null))));
        }
        // Gateways' own global IPs, in their Gateway objects' annotation as upstream (0.18 on) keeps
        // them. Every annotated Gateway's is taken back, active or passive, as upstream's Gateway
        // controller reserves them all when it starts (NewGatewayController), so that none is handed
        // out twice. (A Node's annotation, where upstream kept it before 0.18, is not: passes clear it.)
        for (Gateway gateway : byAge(live.gateways())) {
            Optional<Ipv4Address> held = StatusGlobalAddresses.annotated(gateway);
            if (held.isPresent() && book.restore(gatewayKey(gateway), uid(gateway), List.of(held.get()))
                    instanceof AllocationResult.Failed) {
                actions.add(new GlobalnetAction.Annotate(gatewayKey(gateway), uid(gateway), Optional.empty()));
            }
        }
        return actions;
    }

    /** The book's key of a gateway's own global IP: its Gateway object, which holds it in its annotation. */
    static ObjectKey gatewayKey(Gateway gateway) {
        return new ObjectKey(GATEWAY, gateway.getMetadata().getNamespace(), gateway.getMetadata().getName());
    }

    /** The book's key of a Node's {@code submariner.io/globalIp} annotation, which Globalnet 2.0 no longer writes. */
    private static ObjectKey nodeKey(io.fabric8.kubernetes.api.model.Node node) {
        return new ObjectKey("Node", "", node.getMetadata().getName());
    }

    private static Optional<Condition> restoreOne(AllocationBook book, HasMetadata object, List<String> held, Instant now) {
        return restoreOne(book, ObjectKey.of(object), uid(object), held, now);
    }

    private static Optional<Condition> restoreOne(AllocationBook book, ObjectKey key, String uid, List<String> held, Instant now) {
        if (held.isEmpty()) {
            return Optional.empty();
        }
        List<Ipv4Address> addresses = new ArrayList<>();
        for (String text : held) {
            try {
                addresses.add(Ipv4Address.parse(text));
            } catch (IllegalArgumentException e) {
                return Optional.of(condition(AllocationCondition.failure(AllocationReason.RESERVE_ALLOCATED_IPS_FAILED,
                        "could not take back the allocated global IPs " + held + ": " + e.getMessage() + "; new ones will be allocated"), now));
            }
        }
        return switch (book.restore(key, uid, addresses)) {
            case AllocationResult.Allocated allocated -> Optional.empty();
            case AllocationResult.Failed failed -> Optional.of(condition(AllocationCondition.failure(
                    AllocationReason.RESERVE_ALLOCATED_IPS_FAILED, "could not take back the allocated global IPs " + held + ": "
                            + failed.reason() + "; new ones will be allocated"), now));
        };
    }

    /**
     * One pass over everything.
     *
     * @param cluster the local cluster as the model builder sees it (exports, services, pods, gateways, settings)
     */
    public static List<GlobalnetAction> run(AllocationBook book, LiveObjects live, Cluster cluster, Instant now) {
        List<GlobalnetAction> actions = new ArrayList<>();
        Set<ObjectKey> deleting = new HashSet<>();

        // What must exist: the cluster's egress object(s), and the ingress objects of the exports.
        Map<String, ClusterGlobalEgressIPResource> wantedEgress = wantedClusterEgress(cluster);
        Map<ObjectKey, GlobalIngressIPResource> wantedIngress = wantedIngress(cluster);

        Set<String> presentEgress = new HashSet<>();
        for (ClusterGlobalEgressIPResource object : live.clusterGlobalEgressIPs()) {
            presentEgress.add(object.getMetadata().getName());
            if (!wantedEgress.containsKey(object.getMetadata().getName()) && managed(object)) {
                deleting.add(ObjectKey.of(object));
                actions.add(new GlobalnetAction.Delete(ObjectKey.of(object), uid(object)));
            }
        }
        boolean egressMissing = false;
        for (Map.Entry<String, ClusterGlobalEgressIPResource> wanted : wantedEgress.entrySet()) {
            if (!presentEgress.contains(wanted.getKey())) {
                actions.add(new GlobalnetAction.Create(ObjectKey.of(wanted.getValue()), wanted.getValue()));
                egressMissing = true;
            }
        }
        Map<ObjectKey, GlobalIngressIPResource> presentIngress = new LinkedHashMap<>();
        for (GlobalIngressIPResource object : live.globalIngressIPs()) {
            ObjectKey key = ObjectKey.of(object);
            presentIngress.put(key, object);
            GlobalIngressIPResource wanted = wantedIngress.get(key);
            if (managed(object) && (wanted == null || !wanted.getSpec().equals(object.getSpec()))) {
                // A changed target (say the pod now backs another exported service) is a new object: it is recreated next pass.
                deleting.add(key);
                actions.add(new GlobalnetAction.Delete(key, uid(object)));
            }
        }
        boolean ingressMissing = false;
        for (Map.Entry<ObjectKey, GlobalIngressIPResource> wanted : wantedIngress.entrySet()) {
            if (!presentIngress.containsKey(wanted.getKey())) {
                actions.add(new GlobalnetAction.Create(wanted.getKey(), wanted.getValue()));
                ingressMissing = true;
            }
        }

        // Addresses of objects that are gone (or were recreated under the same name) go back first.
        Map<ObjectKey, String> seen = new java.util.HashMap<>();
        live.clusterGlobalEgressIPs().forEach(o -> seen.put(ObjectKey.of(o), uid(o)));
        live.globalEgressIPs().forEach(o -> seen.put(ObjectKey.of(o), uid(o)));
        live.globalIngressIPs().forEach(o -> seen.put(ObjectKey.of(o), uid(o)));
        Set<String> gatewayNodes = live.gatewayNodes();
        // A gateway's global IP is held while its Gateway object stands, whatever its HA status (a
        // failed or passive gateway keeps its own, as upstream's do), but not once its node is
        // deleted or unlabelled, or the pool would shrink with every gateway that ever left.
        live.gateways().stream().filter(g -> gatewayNodes.contains(g.getMetadata().getName()))
                .forEach(g -> seen.put(gatewayKey(g), uid(g)));
        for (ObjectKey key : book.holders()) {
            Optional<SliceOf> slice = sliceOf(key);
            ObjectKey object = slice.map(SliceOf::object).orElse(key);
            String uid = seen.get(object);
            // A slice is held while its object stands and its gateway can come back: also while the
            // gateway has no lease (the survivors keep their own slices, and a gateway that comes back
            // finds its own, its pods' connections NATed to it), but not once its node is deleted or
            // unlabelled, or the pool would shrink with every gateway that ever left.
            boolean sliceGone = slice.isPresent() && (!cluster.egressPerGateway() || !gatewayNodes.contains(slice.get().gateway()));
            if (uid == null || sliceGone || deleting.contains(object) || !uid.equals(book.holding(key).orElseThrow().uid())) {
                book.release(key);
            }
        }

        if (egressMissing) {
            // The cluster's egress addresses are allocated before anything else, as on a fresh
            // cluster, so the same objects get the same addresses as the topology file's IPAM gives.
            return actions;
        }
        for (ClusterGlobalEgressIPResource object : byAge(live.clusterGlobalEgressIPs())) {
            ObjectKey key = ObjectKey.of(object);
            if (deleting.contains(key)) {
                continue;
            }
            Outcome outcome;
            if (!wantedEgress.containsKey(object.getMetadata().getName())) {
                book.release(key);
                outcome = Outcome.failed(AllocationReason.INVALID_INSTANCE, key + " is not honoured: only "
                        + String.join(", ", wantedEgress.keySet()) + " may exist in this cluster"
                        + (cluster.multiActiveGateways() ? " (one per active gateway)" : ""));
            } else {
                Integer n = object.getSpec() == null ? null : object.getSpec().numGlobalIPs();
                outcome = request(book, key, uid(object), n == null ? cluster.clusterEgressIPs() : n);
            }
            List<Condition> old = object.getStatus() == null ? List.of() : object.getStatus().conditions();
            AllocationStatus status = new AllocationStatus(merge(old, condition(outcome.condition(), now)), text(outcome.addresses()));
            if (!sameStatus(object.getStatus() == null ? null : object.getStatus().allocatedIPs(), old, status.allocatedIPs(), status.conditions())) {
                actions.add(new GlobalnetAction.WriteEgressStatus(key, uid(object), status));
            }
        }
        for (GlobalEgressIPResource object : byAge(live.globalEgressIPs())) {
            ObjectKey key = ObjectKey.of(object);
            Outcome outcome;
            List<Slice> slices = List.of();
            try {
                if (object.getSpec() != null && object.getSpec().podSelector() != null) {
                    LabelSelectorConversion.toModel(object.getSpec().podSelector());
                }
                Integer n = object.getSpec() == null ? null : object.getSpec().numberOfIPs();
                int wanted = n == null ? GlobalEgressIP.DEFAULT_IPS : n;
                if (cluster.egressPerGateway()) {
                    book.release(key);
                    Optional<Outcome> invalid = invalidNumber(key, wanted);
                    if (invalid.isPresent()) {
                        releaseSlices(book, key);
                        outcome = invalid.get();
                    } else {
                        List<Slice> requested = requestSlices(book, key, uid(object), wanted, cluster);
                        List<Slice> held = heldSlices(book, key, wanted, cluster);
                        outcome = sliced(book, key, requested, held, wanted);
                        slices = java.util.stream.Stream.concat(requested.stream(), held.stream())
                                .sorted(Comparator.comparing(Slice::gateway)).toList();
                    }
                } else {
                    outcome = request(book, key, uid(object), wanted);
                }
            } catch (IllegalArgumentException e) {
                book.release(key);
                releaseSlices(book, key);
                outcome = Outcome.failed(AllocationReason.INVALID_INPUT, key + " has an invalid podSelector: " + e.getMessage());
            }
            List<Condition> old = object.getStatus() == null ? List.of() : object.getStatus().conditions();
            AllocationStatus status = new AllocationStatus(merge(old, condition(outcome.condition(), now)), text(outcome.addresses()),
                    outcome.condition().succeeded() ? slices.stream().map(Slice::status).toList() : null);
            boolean sameSlices = java.util.Objects.equals(object.getStatus() == null ? null : object.getStatus().gatewaySlices(), status.gatewaySlices());
            if (!sameSlices || !sameStatus(object.getStatus() == null ? null : object.getStatus().allocatedIPs(), old, status.allocatedIPs(),
                    status.conditions())) {
                actions.add(new GlobalnetAction.WriteEgressStatus(key, uid(object), status));
            }
        }
        for (GlobalIngressIPResource object : byAge(live.globalIngressIPs())) {
            ObjectKey key = ObjectKey.of(object);
            if (deleting.contains(key)) {
                continue;
            }
            Outcome outcome;
            Optional<String> invalid = invalidIngress(object, wantedIngress.containsKey(key));
            if (invalid.isPresent()) {
                book.release(key);
                outcome = Outcome.failed(managed(object) ? AllocationReason.INVALID_INPUT : AllocationReason.INVALID_INSTANCE,
                        key + " " + invalid.get());
            } else {
                outcome = request(book, key, uid(object), 1);
            }
            List<Condition> old = object.getStatus() == null ? List.of() : object.getStatus().conditions();
            List<String> address = text(outcome.addresses());
            GlobalIngressIPStatus status = new GlobalIngressIPStatus(merge(old, condition(outcome.condition(), now)),
                    address.isEmpty() ? null : address.getFirst(), address.isEmpty() ? null : owner(object, cluster).orElse(null));
            String oldAddress = object.getStatus() == null ? null : object.getStatus().allocatedIP();
            String oldOwner = object.getStatus() == null ? null : object.getStatus().gateway();
            if (!java.util.Objects.equals(oldOwner, status.gateway()) || !sameStatus(oldAddress == null || oldAddress.isEmpty() ? List.of()
                    : List.of(oldAddress), old, address, status.conditions())) {
                actions.add(new GlobalnetAction.WriteIngressStatus(key, uid(object), status));
            }
        }
        // The gateway nodes come after every other object, as in the topology file's IPAM: not
        // while an ingress object this pass creates (or the informer has not shown yet) still waits
        // for its address.
        actions.addAll(gateways(book, live, cluster, !ingressMissing));
        return actions;
    }

    /**
     * Upstream's Gateway controller ({@code pkg/globalnet/controllers/gateway_controller.go}): each
     * active gateway's Gateway object gets one global IP of its own in its
     * {@code submariner.io/globalIp} annotation (its Endpoint's healthCheckIP, DNATed to its CNI
     * address by the gateway), after every other object as the topology file's IPAM gives them. A
     * Gateway that has one keeps it, active or not; one whose node is no gateway node any more loses
     * it. A gateway without a Gateway object yet (its agent writes it) waits for it, and a full pool
     * leaves it without one until a later pass finds an address free, as upstream requeues it. Every
     * Node's annotation is removed: upstream before 0.18 kept the address there.
     */
    private static List<GlobalnetAction> gateways(AllocationBook book, LiveObjects live, Cluster cluster, boolean allocate) {
        List<GlobalnetAction> actions = new ArrayList<>();
        Map<String, Gateway> objects = new LinkedHashMap<>();
        live.gateways().forEach(g -> objects.put(g.getMetadata().getName(), g));
        Set<String> activeGateways = new HashSet<>(cluster.activeGateways().stream().map(Node::name).toList());
        // The active gateways ask in node order, as the topology file's IPAM asks.
        List<Gateway> order = new ArrayList<>();
        cluster.activeGateways().stream().map(g -> objects.get(g.name())).filter(java.util.Objects::nonNull).forEach(order::add);
        objects.values().stream().filter(g -> !activeGateways.contains(g.getMetadata().getName())).forEach(order::add);
        for (Gateway object : order) {
            ObjectKey key = gatewayKey(object);
            Optional<Ipv4Address> address = book.holding(key).map(h -> h.addresses().getFirst());
            if (address.isEmpty() && allocate && activeGateways.contains(object.getMetadata().getName())
                    && book.allocate(key, uid(object), 1) instanceof AllocationResult.Allocated allocated) {
                address = Optional.of(allocated.addresses().getFirst());
            }
            if (!address.equals(StatusGlobalAddresses.annotated(object))) {
                actions.add(new GlobalnetAction.Annotate(key, uid(object), address));
            }
        }
        for (io.fabric8.kubernetes.api.model.Node node : live.nodes()) {
            if (StatusGlobalAddresses.annotated(node).isPresent()) {
                actions.add(new GlobalnetAction.Annotate(nodeKey(node), uid(node), Optional.empty()));
            }
        }
        return actions;
    }

    /** Upstream's answer to a request: the 0..20 bounds, then zero, then the pool; an object keeps what it holds while its request stands. */
    private static Outcome request(AllocationBook book, ObjectKey key, String uid, int n) {
        Optional<Outcome> invalid = invalidNumber(key, n);
        if (invalid.isPresent()) {
            book.release(key);
            return invalid.get();
        }
        Optional<AllocationBook.Holding> holding = book.holding(key);
        if (holding.isPresent() && holding.get().uid().equals(uid) && holding.get().addresses().size() == n) {
            return Outcome.allocated(holding.get().addresses());
        }
        return switch (book.allocate(key, uid, n)) {
            case AllocationResult.Allocated allocated -> Outcome.allocated(allocated.addresses());
            case AllocationResult.Failed failed -> Outcome.failed(AllocationReason.IP_POOL_ALLOCATION_FAILED, failed.describe());
        };
    }

    /** Upstream's first two checks of a request: the 0..20 bounds, then zero. */
    private static Optional<Outcome> invalidNumber(ObjectKey key, int n) {
        if (n < GlobalEgressIP.MIN_IPS || n > GlobalEgressIP.MAX_IPS) {
            return Optional.of(Outcome.failed(AllocationReason.INVALID_INPUT, key + " asks for " + n + " global IPs; the number must be within "
                    + GlobalEgressIP.MIN_IPS + ".." + GlobalEgressIP.MAX_IPS));
        }
        if (n == 0) {
            return Optional.of(Outcome.failed(AllocationReason.ZERO_INPUT, key + " asks for 0 global IPs, so none were allocated"));
        }
        return Optional.empty();
    }

    /** Under per-gateway egress ownership, the active gateway that owns a headless pod's global IP. */
    private static Optional<String> owner(GlobalIngressIPResource object, Cluster cluster) {
        if (!cluster.egressPerGateway() || object.getSpec() == null || object.getSpec().podRef() == null
                || !GlobalIngressIPSpec.HEADLESS_SERVICE_POD.equals(object.getSpec().target())) {
            return Optional.empty();
        }
        return cluster.pod(object.getMetadata().getNamespace(), object.getSpec().podRef().getName())
                .flatMap(pod -> HeadlessPodOwners.ownerOf(cluster, pod));
    }

    /** The book's key of one gateway's slice of a GlobalEgressIP (per-gateway egress ownership). */
    static ObjectKey sliceKey(ObjectKey object, String gateway) {
        return new ObjectKey(object.kind(), object.namespace(), object.name() + SLICE_OF_GATEWAY + gateway + ")");
    }

    private static final String SLICE_OF_GATEWAY = " (slice of gateway ";

    /** A slice's key read back: the object it belongs to and its gateway. */
    private record SliceOf(ObjectKey object, String gateway) {
    }

    /** The object and gateway of a slice's key; empty for a key that is not a slice's. */
    private static Optional<SliceOf> sliceOf(ObjectKey key) {
        int at = key.name().indexOf(SLICE_OF_GATEWAY);
        return at < 0 ? Optional.empty() : Optional.of(new SliceOf(new ObjectKey(key.kind(), key.namespace(), key.name().substring(0, at)),
                key.name().substring(at + SLICE_OF_GATEWAY.length(), key.name().length() - 1)));
    }

    /** Gives back every slice the object holds, its lease-less gateways' too. */
    private static void releaseSlices(AllocationBook book, ObjectKey key) {
        for (ObjectKey holder : book.holders()) {
            if (sliceOf(holder).filter(s -> s.object().equals(key)).isPresent()) {
                book.release(holder);
            }
        }
    }

    private record Slice(String gateway, Outcome outcome) {
        AllocationStatus.GatewaySlice status() {
            return new AllocationStatus.GatewaySlice(gateway, text(outcome.addresses()));
        }
    }

    /** One slice of {@code n} addresses per active gateway, in node order, as the topology file's IPAM gives them. */
    private static List<Slice> requestSlices(AllocationBook book, ObjectKey key, String uid, int n, Cluster cluster) {
        List<Slice> slices = new ArrayList<>();
        for (Node gateway : cluster.activeGateways()) {
            slices.add(new Slice(gateway.name(), request(book, sliceKey(key, gateway.name()), uid, n)));
        }
        return slices;
    }

    /**
     * The slices held for the object's gateways that have no lease but can come back (the release
     * step has given back those of gateways gone for good), in gateway order. A slice of another size
     * than the object now asks for goes back: its gateway gets a new one when it is back.
     */
    private static List<Slice> heldSlices(AllocationBook book, ObjectKey key, int n, Cluster cluster) {
        Set<String> active = new HashSet<>(cluster.activeGateways().stream().map(Node::name).toList());
        List<Slice> held = new ArrayList<>();
        for (ObjectKey holder : book.holders()) {
            Optional<SliceOf> slice = sliceOf(holder).filter(s -> s.object().equals(key) && !active.contains(s.gateway()));
            if (slice.isEmpty()) {
                continue;
            }
            List<Ipv4Address> addresses = book.holding(holder).orElseThrow().addresses();
            if (addresses.size() == n) {
                held.add(new Slice(slice.get().gateway(), Outcome.allocated(addresses)));
            } else {
                book.release(holder);
            }
        }
        held.sort(Comparator.comparing(Slice::gateway));
        return held;
    }

    /**
     * The object's outcome: every slice's addresses (the active gateways' and those held for
     * gateways without a lease) when every active gateway's was allocated; else none, all its slices
     * given back, and the message of the topology file's IPAM ({@link SliceShortfall}): what it needs
     * in all, and what the pool lacks with none of its slices held.
     */
    private static Outcome sliced(AllocationBook book, ObjectKey key, List<Slice> requested, List<Slice> held, int n) {
        Optional<Slice> failed = requested.stream().filter(s -> !s.outcome().condition().succeeded()).findFirst();
        if (failed.isPresent()) {
            releaseSlices(book, key);
            SliceShortfall shortfall = new SliceShortfall(key.requester(), n, requested.stream().map(Slice::gateway).toList(), book.globalCidr(),
                    book.freeCount(), failed.get().gateway());
            return Outcome.failed(AllocationReason.IP_POOL_ALLOCATION_FAILED, shortfall.describe());
        }
        String heldText = held.isEmpty() ? "" : "; held for " + (held.size() == 1 ? "its gateway" : "its gateways") + " without a lease until "
                + (held.size() == 1 ? "it is" : "they are") + " back: " + describe(held);
        List<Ipv4Address> all = java.util.stream.Stream.concat(requested.stream(), held.stream())
                .sorted(Comparator.comparing(Slice::gateway)).flatMap(s -> s.outcome().addresses().stream()).toList();
        if (requested.isEmpty()) {
            // Every gateway is down: nothing to SNAT with; a gateway that comes back gets its own slice, or a new one.
            return new Outcome(all, AllocationCondition.success("no gateway is active; each active gateway gets a slice of "
                    + n + (n == 1 ? " global IP" : " global IPs") + heldText));
        }
        return new Outcome(all, AllocationCondition.success("allocated " + requested.size() + " slices of " + n
                + " global IPs, one per active gateway: " + describe(requested) + heldText));
    }

    private static String describe(List<Slice> slices) {
        return slices.stream().map(s -> s.gateway() + " " + rangeOf(s.outcome().addresses())).collect(java.util.stream.Collectors.joining(", "));
    }

    private static String rangeOf(List<Ipv4Address> addresses) {
        return addresses.size() == 1 ? addresses.getFirst().toString() : addresses.getFirst() + "-" + addresses.getLast();
    }

    private record Outcome(List<Ipv4Address> addresses, AllocationCondition condition) {
        static Outcome failed(AllocationReason reason, String message) {
            return new Outcome(List.of(), AllocationCondition.failure(reason, message));
        }

        static Outcome allocated(List<Ipv4Address> addresses) {
            String text = addresses.size() == 1 ? addresses.getFirst().toString() : addresses.getFirst() + "-" + addresses.getLast();
            return new Outcome(addresses, AllocationCondition.success("allocated " + addresses.size()
                    + (addresses.size() == 1 ? " global IP: " : " global IPs: ") + text));
        }
    }

    /** The ClusterGlobalEgressIP names this cluster honours, with the object to create when one is missing. */
    static Map<String, ClusterGlobalEgressIPResource> wantedClusterEgress(Cluster cluster) {
        List<ClusterGlobalEgressIP> objects = cluster.multiActiveGateways()
                ? cluster.gateways().stream().map(Node::name).sorted()
                        .map(gw -> ClusterGlobalEgressIP.forGateway(cluster.name(), gw, cluster.clusterEgressIPs())).toList()
                : List.of(ClusterGlobalEgressIP.forCluster(cluster.name(), cluster.clusterEgressIPs()));
        Map<String, ClusterGlobalEgressIPResource> wanted = new LinkedHashMap<>();
        for (var model : objects) {
            ClusterGlobalEgressIPResource object = new ClusterGlobalEgressIPResource();
            object.setMetadata(new ObjectMetaBuilder().withName(model.name())
                    .withLabels(Map.of(SubmarinerApi.MANAGED_BY_LABEL, SubmarinerApi.GLOBALNET_MANAGER)).build());
            object.setSpec(new ClusterGlobalEgressIPSpec(model.numGlobalIPs(), model.clusterId()));
            wanted.put(model.name(), object);
        }
        return wanted;
    }

    /** One GlobalIngressIP per exported ClusterIP service, and one per pod of an exported headless service (the first export's). */
    static Map<ObjectKey, GlobalIngressIPResource> wantedIngress(Cluster cluster) {
        Map<ObjectKey, GlobalIngressIPResource> wanted = new LinkedHashMap<>();
        for (ServiceExport export : cluster.exports()) {
            Optional<Service> service = cluster.service(export.namespace(), export.name());
            if (service.isEmpty()) {
                continue;
            }
            if (!service.get().headless()) {
                var model = GlobalIngressIP.forService(export.namespace(), export.name());
                wanted.putIfAbsent(new ObjectKey(INGRESS, model.namespace(), model.name()), ingress(model.name(), model.namespace(),
                        new GlobalIngressIPSpec(GlobalIngressIPSpec.CLUSTER_IP_SERVICE, new LocalObjectReference(export.name()), null)));
            } else {
                for (Pod pod : cluster.endpointsOf(service.get())) {
                    var model = GlobalIngressIP.forHeadlessPod(pod.namespace(), export.name(), pod.name());
                    wanted.putIfAbsent(new ObjectKey(INGRESS, model.namespace(), model.name()), ingress(model.name(), model.namespace(),
                            new GlobalIngressIPSpec(GlobalIngressIPSpec.HEADLESS_SERVICE_POD, new LocalObjectReference(export.name()),
                                    new LocalObjectReference(pod.name()))));
                }
            }
        }
        return wanted;
    }

    private static GlobalIngressIPResource ingress(String name, String namespace, GlobalIngressIPSpec spec) {
        GlobalIngressIPResource object = new GlobalIngressIPResource();
        object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .withLabels(Map.of(SubmarinerApi.MANAGED_BY_LABEL, SubmarinerApi.GLOBALNET_MANAGER)).build());
        object.setSpec(spec);
        return object;
    }

    private static Optional<String> invalidIngress(GlobalIngressIPResource object, boolean wanted) {
        if (!managed(object)) {
            return Optional.of("was not created by the Globalnet controller; GlobalIngressIPs are made for exported services only");
        }
        GlobalIngressIPSpec spec = object.getSpec();
        if (spec == null || !GlobalIngressIPSpec.CLUSTER_IP_SERVICE.equals(spec.target()) && !GlobalIngressIPSpec.HEADLESS_SERVICE_POD.equals(spec.target())) {
            return Optional.of("has target '" + (spec == null ? null : spec.target()) + "'; it must be "
                    + GlobalIngressIPSpec.CLUSTER_IP_SERVICE + " or " + GlobalIngressIPSpec.HEADLESS_SERVICE_POD);
        }
        if (!wanted) {
            return Optional.of("names no exported service or pod of one");
        }
        return Optional.empty();
    }

    static boolean managed(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels != null && SubmarinerApi.GLOBALNET_MANAGER.equals(labels.get(SubmarinerApi.MANAGED_BY_LABEL));
    }

    static Condition condition(AllocationCondition condition, Instant now) {
        return new ConditionBuilder().withType(condition.type()).withStatus(condition.status().upstreamName())
                .withReason(condition.reason().upstreamName()).withMessage(condition.message())
                .withLastTransitionTime(now.truncatedTo(ChronoUnit.SECONDS).toString()).build();
    }

    /** Replaces the condition of the same type; keeps its transition time when neither status nor reason changed. */
    static List<Condition> merge(List<Condition> old, Condition fresh) {
        List<Condition> merged = new ArrayList<>();
        boolean replaced = false;
        for (Condition condition : old) {
            if (fresh.getType().equals(condition.getType())) {
                boolean sameState = fresh.getStatus().equals(condition.getStatus()) && fresh.getReason().equals(condition.getReason());
                merged.add(sameState && condition.getLastTransitionTime() != null
                        ? new ConditionBuilder(fresh).withLastTransitionTime(condition.getLastTransitionTime()).build() : fresh);
                replaced = true;
            } else {
                merged.add(condition);
            }
        }
        if (!replaced) {
            merged.add(fresh);
        }
        return merged;
    }

    private static boolean sameStatus(List<String> oldAddresses, List<Condition> oldConditions, List<String> addresses, List<Condition> conditions) {
        return (oldAddresses == null ? List.of() : oldAddresses).equals(addresses) && oldConditions.equals(conditions);
    }

    private static List<String> text(List<Ipv4Address> addresses) {
        return addresses.stream().map(Ipv4Address::toString).toList();
    }

    private static String uid(HasMetadata object) {
        return object.getMetadata().getUid() == null ? "" : object.getMetadata().getUid();
    }

    /** Oldest first, so that after a restart the older of two objects claiming one address keeps it. */
    private static <T extends HasMetadata> List<T> byAge(List<T> objects) {
        return objects.stream().sorted(Comparator.comparing((T o) -> o.getMetadata().getCreationTimestamp() == null ? "" : o.getMetadata().getCreationTimestamp())
                .thenComparing(o -> o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace())
                .thenComparing(o -> o.getMetadata().getName())).toList();
    }
}
