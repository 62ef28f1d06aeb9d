package io.periscope.lab.failover;

import io.periscope.dataplane.health.HealthTargets;
import io.periscope.dataplane.health.NexthopWithdrawal;
import io.periscope.lab.lease.LabLeases;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.layout.SysctlSettings;
import io.periscope.lab.probe.ProbeTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.planner.DownGateways;
import io.periscope.planner.Planner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A failover's prediction, flow by flow, in the lab's terms: for each stream's own 5-tuple, the
 * gateways its packets cross with every node up, with the failed node's choices withdrawn, and
 * after the heal. The simulator traces the streams ({@link FailoverSimulation}); this class holds
 * what the lab knows. Nothing measured goes in: each node's choice is the kernel's (the multipath
 * hash under the seed {@code lab up} gave the node, {@link #labSeeds}), and the failure is what the
 * running agents program on every other node ({@link #plans}): their plan for the gateway down
 * ({@link Planner#replan}) less its tunnel addresses' choices ({@link NexthopWithdrawal}).
 *
 * <p>{@code agent-stop} withdraws nothing: the node's kernel still forwards and answers the
 * probes. Resilient tables start as a new group fills them, so a lab whose groups were already
 * failed and healed once (an earlier {@code lab failover}) may have moved buckets the prediction
 * does not know about: run it on a fresh {@code lab up}.
 */
public final class FailoverPrediction {

    /** A stream's predicted gateways; {@code after} is empty when the node is not healed. */
    public record PredictedStream(int id, Set<String> before, Set<String> during, Set<String> after) {

        public boolean moves() {
            return !before.equals(during);
        }
    }

    /**
     * A stream to predict: its flow as the lab sends it, source port included.
     *
     * @param sourceIp the address the source binds; empty for a node's own socket, which leaves it to routing
     */
    public record StreamFlow(int id, HostId source, Optional<Ipv4Address> sourceIp, Ipv4Address destination, int port, Protocol protocol,
                             int sourcePort) {

        /** The stream from {@code sourcePort} of a flow as the probe resolves it. */
        public static StreamFlow of(int id, ProbeTarget target, int sourcePort) {
            return new StreamFlow(id, target.source(), target.sourceIp(), target.destination(), target.port(), target.protocol(), sourcePort);
        }
    }

    private FailoverPrediction() {
    }

    /** Whether this kernel lets {@code lab up} seed each node's multipath hash, without which no flow's choice is predictable. */
    public static boolean seedsKnown() {
        return Files.exists(Path.of("/proc/sys", SysctlSettings.MULTIPATH_HASH_SEED.replace('.', '/')));
    }

    /** Every gateway's tunnel addresses (its {@code vx-submariner} and cable addresses), which the agents watch. */
    static Set<Ipv4Address> tunnelAddresses(ClusterSetPlan plan, String node) {
        Set<Ipv4Address> addresses = new TreeSet<>();
        var names = HealthTargets.gatewayNames(plan);
        for (HostPlan host : plan.hosts().values()) {
            host.submariner().vxlanDevices().forEach(device -> {
                if (node.equals(names.apply(device.address()))) {
                    addresses.add(device.address());
                }
            });
        }
        return addresses;
    }

    /**
     * The plan as the agents program it while the {@code failed} gateway's tunnel addresses
     * ({@code down}) go unanswered: every other node plans for the gateway down, as the supervisor's
     * agents do ({@link Planner#replan}: the ownership it held moves to the live gateways), and
     * withdraws its choices ({@link NexthopWithdrawal}). The failed node itself keeps what it had.
     */
    static ClusterSetPlan withdrawn(ClusterSetPlan plan, Set<Ipv4Address> down, HostId failed) {
        if (down.isEmpty()) {
            return plan;
        }
        ClusterSetPlan replanned = Planner.replan(plan, DownGateways.of(List.of(failed.toString())));
        TreeMap<HostId, HostPlan> hosts = new TreeMap<>();
        for (HostPlan host : replanned.hosts().values()) {
            hosts.put(host.id(), host.id().equals(failed) ? plan.hosts().get(host.id()) : new HostPlan(host.id(), host.role(), host.node(),
                    host.interfaces(), host.environment(), host.kubeProxy(), NexthopWithdrawal.withdraw(host.submariner(), down)));
        }
        return new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), hosts, plan.segments(), plan.serviceRecords(), plan.allocations(),
                plan.ovn());
    }

    /** The seed {@code lab up} gives each node, when this kernel takes one; empty otherwise. */
    public static Map<HostId, Integer> labSeeds(LabLayout layout) {
        return seedsKnown() ? SysctlSettings.multipathSeeds(layout) : new HashMap<>();
    }

    /**
     * The plans the nodes are programmed with while {@code failed} is down and once it is healed.
     *
     * @param during the plan while failed: a standby's after a lease moved, or every other node's withdrawal
     *               ({@link #withdrawn}); the plan itself when the failure withdraws nothing
     * @param healed the plan after the heal: a lease that moved stays with its new holder when the old one comes
     *               back (it returns as the standby); otherwise the plan itself
     */
    public record FailurePlans(ClusterSetPlan during, ClusterSetPlan healed) {
    }

    /**
     * @param failed   {@code cluster/node}
     * @param withdraw whether the failure makes the agents withdraw the node (every mode but {@code agent-stop})
     */
    public static FailurePlans plans(ClusterSetPlan plan, String failed, boolean withdraw) {
        Optional<ClusterSetPlan> elected = withdraw ? leaseTakenOver(plan, failed) : Optional.empty();
        ClusterSetPlan during = elected.orElseGet(() -> withdraw ? withdrawn(plan, tunnelAddresses(plan, failed), host(plan, failed)) : plan);
        return new FailurePlans(during, elected.orElse(plan));
    }

    /**
     * A TCP connection's predicted fate: its gateways before and while failed, and whether it
     * survives. The kernel decides it at the server: a connection's next segment that reaches the
     * server from another address or port than the connection's belongs to no socket there, and the
     * server answers it with a reset. A moved segment keeps the connection's addresses only if every
     * host that source-translates it (Globalnet's egress SNAT, a remote gateway's SNAT of DNATed
     * traffic) already knew the connection: a host that makes a new conntrack entry for it must give
     * it a tuple no other entry holds.
     */
    public record PredictedConnection(int id, Set<String> before, Set<String> during, boolean survives) {
    }

    /**
     * When {@code failed} is the active gateway of a single-active cluster (one whose gateways elect
     * theirs through the lab's lease), the plan once a standby holds the lease: the next gateway in
     * the cluster's order, as every agent programs it after the supervisor plans again with the new
     * holder ({@link LabLeases#withHolders}). Which standby wins is a race when there are several;
     * the prediction names the first, and {@code lab failover} lists another winner as a difference.
     * Empty for every other node: a failed standby or a gateway among several active ones moves no lease.
     */
    static Optional<ClusterSetPlan> leaseTakenOver(ClusterSetPlan plan, String failed) {
        HostId id = host(plan, failed);
        for (Cluster cluster : LabLeases.electing(plan.clusterSet())) {
            List<Node> gateways = cluster.gateways();
            if (!cluster.name().equals(id.cluster()) || !gateways.getFirst().name().equals(id.name())) {
                continue;
            }
            return gateways.stream().skip(1).findFirst()
                    .map(next -> Planner.plan(LabLeases.withHolders(plan.clusterSet(), Map.of(cluster.name(), next.name()))));
        }
        return Optional.empty();
    }

    private static HostId host(ClusterSetPlan plan, String node) {
        return plan.hosts().keySet().stream().filter(h -> h.toString().equals(node)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(node + " is no node of " + plan.clusterSet().name()));
    }

    /**
     * Every difference between the prediction and what was measured, stream by stream and phase by
     * phase: the gateways before the failure, while failed and, when healed, after.
     */
    public static List<String> differences(List<PredictedStream> predicted, List<FailoverReport.StreamResult> measured, boolean healed) {
        Map<Integer, FailoverReport.StreamResult> byId = new HashMap<>();
        measured.forEach(m -> byId.put(m.id(), m));
        List<String> differences = new ArrayList<>();
        for (PredictedStream p : predicted) {
            FailoverReport.StreamResult m = byId.get(p.id());
            if (m == null) {
                continue;
            }
            String stream = "stream " + p.id() + " (port " + m.sourcePort() + "): ";
            compare(differences, stream, "before the failure", p.before(), m.before());
            compare(differences, stream, "while failed", p.during(), m.during());
            if (healed) {
                compare(differences, stream, "after the heal", p.after(), m.after());
            }
        }
        return differences;
    }

    private static void compare(List<String> differences, String stream, String phase, Set<String> predicted, Set<String> measured) {
        if (!new TreeSet<>(predicted).equals(new TreeSet<>(measured))) {
            differences.add(stream + phase + " predicted " + text(predicted) + ", measured " + text(measured));
        }
    }

    static String text(Set<String> gateways) {
        return gateways.isEmpty() ? "none" : String.join("+", gateways);
    }
}
