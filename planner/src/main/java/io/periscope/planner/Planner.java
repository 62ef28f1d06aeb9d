package io.periscope.planner;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalCidrAllocator;
import io.periscope.model.globalnet.GlobalCidrAssignment;
import io.periscope.model.globalnet.GlobalCidrFailure;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.globalnet.GlobalnetAllocator;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.CablePorts;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Segment;
import io.periscope.plan.ServiceRecord;
import io.periscope.plan.ovn.OvnTopology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compiles a cluster set into every host's dataplane: a pure function (same model and addresses
 * in, same plan out, no I/O). The order of the steps matters where they share a chain:
 * the route agent declares SUBMARINER-POSTROUTING, Globalnet puts its jump first, the cable adds
 * the multi-active-gateway SNAT after it.
 */
public final class Planner {

    private Planner() {
    }

    /**
     * Plans a cluster set whose file passed validation: the broker hands out global CIDRs, the
     * IPAM allocates every Globalnet object, then every host is planned.
     */
    public static ClusterSetPlan plan(ClusterSet set) {
        if (!set.globalnet().enabled()) {
            return plan(set, GlobalAddresses.NONE);
        }
        GlobalnetAllocations allocations = allocate(set);
        return withAllocations(plan(set, new AllocatedGlobalAddresses(allocations)), allocations);
    }

    /**
     * The same cluster set with the same addresses, planned for a node that considers {@code down}
     * gateways down: what its agent programs (less the dead gateways' nexthop choices, which the
     * agent withdraws itself). With no gateway down it is {@code plan} again.
     */
    public static ClusterSetPlan replan(ClusterSetPlan plan, DownGateways down) {
        if (!plan.clusterSet().globalnet().enabled()) {
            return plan(plan.clusterSet(), GlobalAddresses.NONE, down);
        }
        return withAllocations(plan(plan.clusterSet(), new AllocatedGlobalAddresses(plan.allocations()), down), plan.allocations());
    }

    /**
     * The cluster set after the {@code failed} nodes went down (they and their pods are gone), as
     * {@code trace --fail} and the what-if views trace it. The addresses are those of the whole set:
     * a Globalnet controller hands out nothing again when a node fails, so the survivors keep their
     * ClusterGlobalEgressIPs, slices and pods' global IPs, and a dead gateway's stay held, its own
     * global IP too (its Gateway object keeps it). The one addition is in a single-active cluster
     * whose gateway failed: the gateway that takes the lease gets a global IP of its own, as
     * upstream's Gateway controller on the new gateway gives its Gateway one.
     */
    public static ClusterSetPlan planWithout(ClusterSet set, java.util.Collection<String> failedClusterSlashNode) {
        ClusterSet survivors = set.withoutNodes(failedClusterSlashNode);
        if (!set.globalnet().enabled() || failedClusterSlashNode.isEmpty()) {
            return plan(survivors);
        }
        GlobalnetAllocations allocations = GlobalnetAllocator.allocate(set, globalCidrs(set).cidrs(), survivors);
        return withAllocations(plan(survivors, new AllocatedGlobalAddresses(allocations)), allocations);
    }

    private static GlobalnetAllocations allocate(ClusterSet set) {
        return GlobalnetAllocator.allocate(set, globalCidrs(set));
    }

    private static GlobalCidrAssignment globalCidrs(ClusterSet set) {
        GlobalCidrAssignment cidrs = GlobalCidrAllocator.allocate(set);
        if (!cidrs.succeeded()) {
            throw new IllegalArgumentException("global CIDRs cannot be handed out: "
                    + cidrs.failures().stream().map(GlobalCidrFailure::describe).toList());
        }
        return cidrs;
    }

    private static ClusterSetPlan withAllocations(ClusterSetPlan plan, GlobalnetAllocations allocations) {
        return new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), plan.hosts(), plan.segments(), plan.serviceRecords(), allocations,
                plan.ovn());
    }

    public static ClusterSetPlan plan(ClusterSet set, GlobalAddresses global) {
        return plan(set, global, DownGateways.NONE);
    }

    /**
     * Plans every host as a node that considers {@code down} gateways down would program it: their
     * ownership moved to the live gateways ({@link DownGateways}), everything else as without.
     */
    public static ClusterSetPlan plan(ClusterSet set, GlobalAddresses global, DownGateways down) {
        ClusterGraph graph = ClusterGraph.of(set);
        CablePorts ports = CablePorts.of(set, graph);
        Map<String, ClusterIndex> indexes = new java.util.HashMap<>();
        set.clusters().forEach(c -> indexes.put(c.name(), new ClusterIndex(c)));
        List<Segment> segments = new ArrayList<>();
        HostDrafts hosts = EnvironmentPlanner.plan(set, indexes, global, segments);
        List<OvnTopology> ovn = new ArrayList<>();
        ClusterContext.SharedParts setWide = new ClusterContext.SharedParts();

        for (Cluster cluster : set.clusters()) {
            List<String> peers = graph.peersOf(cluster.name());
            List<RemoteCluster> remotes = peers.stream().map(peer -> new RemoteCluster(set.requireCluster(peer),
                    RemoteSubnets.of(set, set.requireCluster(peer), global), graph.connection(cluster.name(), peer).orElseThrow().cableDriver()))
                    .toList();
            List<Ipv4Prefix> remoteSubnets = remotes.stream().flatMap(r -> r.subnets().stream()).toList();
            List<RouteAgentPlanner.RefusedCluster> refused = set.clusters().stream()
                    .filter(other -> !other.name().equals(cluster.name()) && !peers.contains(other.name()))
                    .map(other -> new RouteAgentPlanner.RefusedCluster(other.name(), RemoteSubnets.of(set, other, global)))
                    .toList();
            ClusterContext context = new ClusterContext(set, cluster, indexes.get(cluster.name()), global, down, ports,
                    RemoteSubnets.of(set, cluster, global), remotes, remoteSubnets, refused, setWide);
            if (cluster.cni() == Cni.OVN_KUBERNETES) {
                ovn.add(OvnPlanner.plan(context, segments));
            }
            for (Node node : cluster.nodes()) {
                HostDraft host = hosts.node(HostId.node(cluster.name(), node.name()));
                HostContext planned = context.host(node, host, new Tunnels.NexthopIds());
                RouteAgentPlanner.plan(planned);
                if (host.role == HostPlan.HostRole.NODE && cluster.cni() != Cni.OVN_KUBERNETES && set.globalnet().enabled()) {
                    EgressSteeringPlanner.plan(planned);
                }
                if (host.role == HostPlan.HostRole.GATEWAY) {
                    if (set.globalnet().enabled()) {
                        GlobalnetPlanner.plan(planned);
                    }
                    CablePlanner.plan(planned);
                    if (cluster.cni() == Cni.OVN_KUBERNETES) {
                        OvnArchitecture.of(set).gatewayPostrouting(planned);
                    }
                }
                RouteAgentPlanner.planMultipathSysctls(planned);
            }
        }

        HostPlan[] built = hosts.build(new java.util.HashMap<>());
        return new ClusterSetPlan(set, endpoints(set, global, down), ClusterSetPlan.hostsById(built), segments, serviceRecords(set, indexes, global),
                GlobalnetAllocations.NONE, ovn);
    }

    /** One Endpoint per active gateway, as the gateway agent publishes it through the broker. */
    static List<Endpoint> endpoints(ClusterSet set, GlobalAddresses global, DownGateways down) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            for (Node gateway : cluster.activeGateways()) {
                List<Ipv4Address> allocated = OwnedEgress.of(set, cluster, gateway, global, down);
                // Upstream's healthCheckIP: the CNI address, or with Globalnet the node's global IP.
                Optional<Ipv4Address> healthCheckIp = set.globalnet().enabled()
                        ? global.gatewayGlobalIp(cluster.name(), gateway.name()) : Optional.of(gateway.cniIp());
                endpoints.add(new Endpoint(cluster.name(), gateway.name(), gateway.ip(), gateway.publicIp(),
                        RemoteSubnets.of(set, cluster, global), set.defaultCableDriver(), Map.of(), allocated, healthCheckIp));
            }
        }
        return endpoints;
    }

    /** Lighthouse's answers: exported services (global IPs with Globalnet) and headless pods. */
    static List<ServiceRecord> serviceRecords(ClusterSet set, Map<String, ClusterIndex> indexes, GlobalAddresses global) {
        List<ServiceRecord> records = new ArrayList<>();
        boolean globalnet = set.globalnet().enabled();
        for (Cluster cluster : set.clusters()) {
            ClusterIndex index = indexes.get(cluster.name());
            for (Service service : cluster.services()) {
                if (!index.isExported(service)) {
                    continue;
                }
                if (service.headless()) {
                    for (Pod pod : index.endpointsOf(service)) {
                        Optional<Ipv4Address> address = globalnet
                                ? global.headlessPodIngress(cluster.name(), pod.namespace(), pod.name()) : Optional.of(pod.ip());
                        address.ifPresent(a -> records.add(new ServiceRecord(cluster.name(), service.namespace(), service.name(),
                                Optional.of(pod.name()), a)));
                    }
                } else {
                    Optional<Ipv4Address> address = globalnet
                            ? global.serviceIngress(cluster.name(), service.namespace(), service.name()) : service.clusterIp();
                    address.ifPresent(a -> records.add(new ServiceRecord(cluster.name(), service.namespace(), service.name(),
                            Optional.empty(), a)));
                }
            }
        }
        return records;
    }
}
