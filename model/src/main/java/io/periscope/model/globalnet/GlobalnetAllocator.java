package io.periscope.model.globalnet;

import io.periscope.model.globalnet.GlobalIpAllocation.ClusterEgress;
import io.periscope.model.globalnet.GlobalIpAllocation.Egress;
import io.periscope.model.globalnet.GlobalIpAllocation.EgressSlice;
import io.periscope.model.globalnet.GlobalIpAllocation.Gateway;
import io.periscope.model.globalnet.GlobalIpAllocation.Ingress;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyNode;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyPod;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyService;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Computes every cluster's global IPs from the cluster set, as the cluster's Globalnet controller
 * would hand them out when it starts with all objects present. The order of requests decides who
 * gets which address, so it is fixed:
 *
 * <ol>
 *   <li>the ClusterGlobalEgressIP: one {@code cluster-egress.submariner.io} with
 *       {@code clusterEgressIPs} addresses, or with multiple active gateways one per gateway in node
 *       order, each with {@code clusterEgressIPs} addresses (seed 004);</li>
 *   <li>each GlobalEgressIP in file order; under per-gateway egress ownership one slice per active
 *       gateway in node order, all of them or none;</li>
 *   <li>for each export in export order, a GlobalIngressIP for a ClusterIP service, or one per pod
 *       of a headless service, in pod order (host-network pods are never endpoints);</li>
 *   <li>each active gateway's own global IP, in node order: upstream (0.18 on) annotates the
 *       gateway's {@code Gateway} object with it, and remote gateways' health checks ping it.</li>
 * </ol>
 *
 * <p>The gateways come last as upstream starts them: {@code startControllers} in
 * {@code pkg/globalnet/controllers/gateway_monitor.go} creates and starts the Gateway controller
 * after the ClusterGlobalEgressIP, GlobalEgressIP, GlobalIngressIP, ServiceExport and Service
 * controllers. Upstream's controllers then run side by side, so on a fresh cluster an exported
 * service's address and the gateway's race for the top of the pool; Periscope takes the order they
 * are started in, which is also the one seed 004 needs: it documents the exported service of its
 * Globalnet flow at {@code 242.254.2.254}, the top of its cluster's pool, and the seeds' addresses
 * are the specification. No other object's address depends on the gateways'.
 *
 * <p>With {@link GlobalnetMode#LEGACY} (seed 000) there are no Globalnet 2.0 objects: each exported
 * ClusterIP service gets one address, then each pod that is not on the host network, then each node
 * (its global IP serves the node and its host-network pods). Every one of them is a single address,
 * so all come from the top of the pool. Headless exports and GlobalEgressIP objects are answered with
 * {@code InvalidInput}, since that design had neither.
 *
 * <p>Pure: the same cluster set and CIDRs always give the same allocations.
 */
public final class GlobalnetAllocator {

    private GlobalnetAllocator() {
    }

    public static GlobalnetAllocations allocate(ClusterSet clusterSet, GlobalCidrAssignment globalCidrs) {
        return allocate(clusterSet, globalCidrs.cidrs());
    }

    /**
     * @param globalCidrs every cluster's global CIDR, from {@link GlobalCidrAllocator}
     * @throws IllegalArgumentException if a cluster has no global CIDR: the caller must refuse a topology whose hand-out failed
     */
    public static GlobalnetAllocations allocate(ClusterSet clusterSet, Map<String, Ipv4Prefix> globalCidrs) {
        return allocate(clusterSet, globalCidrs, cluster -> byName(cluster.activeGateways()));
    }

    /**
     * The allocations of {@code clusterSet} after some of its nodes failed, {@code survivors} being
     * the set without them: every object keeps what it got in the whole set (a controller hands out
     * nothing again when a node fails). A gateway's own global IP is per gateway: the failed
     * gateway's Gateway object keeps its address (upstream's Gateway controller reserves every
     * Gateway's, active or passive, when it starts: {@code NewGatewayController}; the object goes
     * only when the new active gateway deletes it as stale, {@code cleanupStaleGatewayEntries} in
     * {@code pkg/cableengine/syncer/syncer.go}), and a gateway that takes the lease and had none
     * gets one of its own, the next single address down from the top ({@code allocateIP}).
     */
    public static GlobalnetAllocations allocate(ClusterSet clusterSet, Map<String, Ipv4Prefix> globalCidrs, ClusterSet survivors) {
        return allocate(clusterSet, globalCidrs, cluster -> holdersAfterFailover(byName(cluster.activeGateways()),
                byName(survivors.cluster(cluster.name()).map(Cluster::activeGateways).orElse(List.of()))));
    }

    /** The whole set's active gateways, which keep theirs, then the survivors' active gateways that had none. */
    private static List<Node> holdersAfterFailover(List<Node> before, List<Node> after) {
        List<Node> holders = new ArrayList<>(before);
        Set<String> held = new HashSet<>(before.stream().map(Node::name).toList());
        after.stream().filter(gateway -> !held.contains(gateway.name())).forEach(holders::add);
        return holders;
    }

    /** @param gateways each cluster's gateways that hold a global IP of their own, in the order they ask for it */
    private static GlobalnetAllocations allocate(ClusterSet clusterSet, Map<String, Ipv4Prefix> globalCidrs,
                                                 java.util.function.Function<Cluster, List<Node>> gateways) {
        if (!clusterSet.globalnet().enabled()) {
            return GlobalnetAllocations.NONE;
        }
        Map<String, ClusterGlobalnetAllocations> clusters = new LinkedHashMap<>();
        for (Cluster cluster : clusterSet.clusters()) {
            Ipv4Prefix cidr = globalCidrs.get(cluster.name());
            if (cidr == null) {
                throw new IllegalArgumentException("cluster " + cluster.name() + " has no global CIDR; hand them out with "
                        + "GlobalCidrAllocator and refuse the topology when that reports failures");
            }
            clusters.put(cluster.name(), allocate(cluster, cidr, clusterSet.globalnet().mode(), gateways.apply(cluster)));
        }
        return new GlobalnetAllocations(clusters);
    }

    /** One cluster's allocations from a fresh pool over {@code globalCidr}. */
    public static ClusterGlobalnetAllocations allocate(Cluster cluster, Ipv4Prefix globalCidr, GlobalnetMode mode) {
        return allocate(cluster, globalCidr, mode, byName(cluster.activeGateways()));
    }

    /**
     * Gateways in the order the Kubernetes controller asks for them: by node name. The API server
     * lists Nodes by name, the controller's model of the cluster keeps that order, and the
     * per-gateway ClusterGlobalEgressIPs, all created in one pass, are then allocated by name too;
     * the topology file's order of its nodes means nothing to a running cluster.
     */
    private static List<Node> byName(List<Node> gateways) {
        return gateways.stream().sorted(java.util.Comparator.comparing(Node::name)).toList();
    }

    /** @param gateways the gateways that hold a global IP of their own (Globalnet 2.0), in the order they ask for it */
    private static ClusterGlobalnetAllocations allocate(Cluster cluster, Ipv4Prefix globalCidr, GlobalnetMode mode, List<Node> gateways) {
        GlobalIpPool pool = new GlobalIpPool(globalCidr);
        List<GlobalIpAllocation> allocations = switch (mode) {
            case V2 -> globalnetV2(cluster, pool, gateways);
            case LEGACY -> legacy(cluster, pool);
        };
        return new ClusterGlobalnetAllocations(cluster.name(), globalCidr, allocations, pool.freeCount());
    }

    private static List<GlobalIpAllocation> globalnetV2(Cluster cluster, GlobalIpPool pool, List<Node> gateways) {
        List<GlobalIpAllocation> allocations = new ArrayList<>();
        List<ClusterGlobalEgressIP> clusterEgress = cluster.multiActiveGateways()
                ? byName(cluster.gateways()).stream()
                        .map(gw -> ClusterGlobalEgressIP.forGateway(cluster.name(), gw.name(), cluster.clusterEgressIPs()))
                        .toList()
                : List.of(ClusterGlobalEgressIP.forCluster(cluster.name(), cluster.clusterEgressIPs()));
        for (ClusterGlobalEgressIP object : clusterEgress) {
            Outcome outcome = request(pool, ClusterEgress.requesterName(object), object.numGlobalIPs());
            allocations.add(new ClusterEgress(object, outcome.addresses(), outcome.condition()));
        }
        for (GlobalEgressIP object : cluster.globalEgressIPs()) {
            if (cluster.egressPerGateway()) {
                allocations.addAll(slices(pool, object, byName(cluster.activeGateways())));
            } else {
                Outcome outcome = request(pool, Egress.requesterName(object), object.numberOfIPs());
                allocations.add(new Egress(object, outcome.addresses(), outcome.condition()));
            }
        }
        // Upstream names a headless pod's object after the pod alone, so a pod behind two exported
        // headless services has one GlobalIngressIP: the first export's.
        Set<String> podsWithIngress = new HashSet<>();
        for (ServiceExport export : cluster.exports()) {
            Optional<Service> service = cluster.service(export.namespace(), export.name());
            if (service.isEmpty()) {
                GlobalIngressIP object = GlobalIngressIP.forService(export.namespace(), export.name());
                allocations.add(new Ingress(object, List.of(), AllocationCondition.failure(AllocationReason.INVALID_INPUT,
                        Ingress.requesterName(object) + ": the exported service " + export + " does not exist")));
            } else if (!service.get().headless()) {
                GlobalIngressIP object = GlobalIngressIP.forService(export.namespace(), export.name());
                Outcome outcome = request(pool, Ingress.requesterName(object), 1);
                allocations.add(new Ingress(object, outcome.addresses(), outcome.condition()));
            } else {
                for (Pod pod : cluster.endpointsOf(service.get())) {
                    if (podsWithIngress.add(pod.qualifiedName())) {
                        GlobalIngressIP object = GlobalIngressIP.forHeadlessPod(pod.namespace(), export.name(), pod.name());
                        Outcome outcome = request(pool, Ingress.requesterName(object), 1);
                        allocations.add(new Ingress(object, outcome.addresses(), outcome.condition()));
                    }
                }
            }
        }
        // Last: see the class comment. One address each, from the top of what is left.
        for (Node gateway : gateways) {
            Outcome outcome = request(pool, Gateway.requesterName(gateway), 1);
            allocations.add(new Gateway(gateway, outcome.addresses(), outcome.condition()));
        }
        return allocations;
    }

    private static List<GlobalIpAllocation> legacy(Cluster cluster, GlobalIpPool pool) {
        List<GlobalIpAllocation> allocations = new ArrayList<>();
        for (ServiceExport export : cluster.exports()) {
            String requester = LegacyService.requesterName(export);
            Optional<Service> service = cluster.service(export.namespace(), export.name());
            if (service.isEmpty()) {
                allocations.add(new LegacyService(export, List.of(), AllocationCondition.failure(AllocationReason.INVALID_INPUT,
                        requester + " is exported but does not exist")));
            } else if (service.get().headless()) {
                allocations.add(new LegacyService(export, List.of(), AllocationCondition.failure(AllocationReason.INVALID_INPUT,
                        requester + " is headless; legacy Globalnet gives global IPs to ClusterIP services only")));
            } else {
                Outcome outcome = request(pool, requester, 1);
                allocations.add(new LegacyService(export, outcome.addresses(), outcome.condition()));
            }
        }
        for (Pod pod : cluster.pods()) {
            if (!pod.hostNetwork()) {
                Outcome outcome = request(pool, LegacyPod.requesterName(pod), 1);
                allocations.add(new LegacyPod(pod, outcome.addresses(), outcome.condition()));
            }
        }
        for (Node node : cluster.nodes()) {
            Outcome outcome = request(pool, LegacyNode.requesterName(node), 1);
            allocations.add(new LegacyNode(node, outcome.addresses(), outcome.condition()));
        }
        for (GlobalEgressIP object : cluster.globalEgressIPs()) {
            allocations.add(new Egress(object, List.of(), AllocationCondition.failure(AllocationReason.INVALID_INPUT,
                    Egress.requesterName(object) + " has no effect with legacy Globalnet, which gives every pod its own global IP")));
        }
        return allocations;
    }

    /**
     * Per-gateway egress ownership: one slice of the object's size per active gateway, the way seed
     * 004 gives each its ClusterGlobalEgressIP, all of them or none, as the Kubernetes controller
     * gives them. An object that does not fit is one failed {@link Egress} holding nothing, and
     * the slices it got before the pool ran short go back for the objects after it.
     */
    private static List<GlobalIpAllocation> slices(GlobalIpPool pool, GlobalEgressIP object, List<Node> gateways) {
        Optional<AllocationCondition> invalid = invalidNumber(Egress.requesterName(object), object.numberOfIPs());
        if (invalid.isPresent()) {
            return List.of(new Egress(object, List.of(), invalid.get()));
        }
        List<EgressSlice> slices = new ArrayList<>();
        for (Node gateway : gateways) {
            Outcome outcome = request(pool, EgressSlice.requesterName(object, gateway.name()), object.numberOfIPs());
            if (!outcome.condition().succeeded()) {
                slices.forEach(slice -> pool.release(slice.addresses()));
                SliceShortfall shortfall = new SliceShortfall(Egress.requesterName(object), object.numberOfIPs(),
                        gateways.stream().map(Node::name).toList(), pool.cidr(), pool.freeCount(), gateway.name());
                return List.of(new Egress(object, List.of(), AllocationCondition.failure(AllocationReason.IP_POOL_ALLOCATION_FAILED,
                        shortfall.describe())));
            }
            slices.add(new EgressSlice(object, gateway.name(), outcome.addresses(), outcome.condition()));
        }
        return List.copyOf(slices);
    }

    private record Outcome(List<Ipv4Address> addresses, AllocationCondition condition) {
    }

    /** Upstream's first two checks of a request: the 0..20 bounds, then zero. */
    private static Optional<AllocationCondition> invalidNumber(String requester, int numberOfIPs) {
        if (numberOfIPs < GlobalEgressIP.MIN_IPS || numberOfIPs > GlobalEgressIP.MAX_IPS) {
            return Optional.of(AllocationCondition.failure(AllocationReason.INVALID_INPUT,
                    requester + " asks for " + numberOfIPs + " global IPs; the number must be within "
                            + GlobalEgressIP.MIN_IPS + ".." + GlobalEgressIP.MAX_IPS));
        }
        if (numberOfIPs == 0) {
            return Optional.of(AllocationCondition.failure(AllocationReason.ZERO_INPUT,
                    requester + " asks for 0 global IPs, so none were allocated"));
        }
        return Optional.empty();
    }

    /** Checked in upstream's order: the 0..20 bounds, then zero, then the pool. */
    private static Outcome request(GlobalIpPool pool, String requester, int numberOfIPs) {
        Optional<AllocationCondition> invalid = invalidNumber(requester, numberOfIPs);
        if (invalid.isPresent()) {
            return new Outcome(List.of(), invalid.get());
        }
        return switch (pool.allocate(requester, numberOfIPs)) {
            case AllocationResult.Allocated allocated -> new Outcome(allocated.addresses(), AllocationCondition.success(
                    "allocated " + numberOfIPs + (numberOfIPs == 1 ? " global IP: " : " global IPs: ")
                            + rangeText(allocated.addresses())));
            case AllocationResult.Failed failed -> new Outcome(List.of(),
                    AllocationCondition.failure(AllocationReason.IP_POOL_ALLOCATION_FAILED, failed.describe()));
        };
    }

    private static String rangeText(List<Ipv4Address> addresses) {
        return addresses.size() == 1 ? addresses.getFirst().toString() : addresses.getFirst() + "-" + addresses.getLast();
    }
}
