package io.periscope.lab.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabBatches;
import io.periscope.lab.layout.LabLayout;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import io.periscope.plan.Names;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPort;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An OVN-Kubernetes cluster of a lab, built from the planner's OVN topology in the namespaces the
 * lab's layout made: the cluster's daemons ({@link OvnCluster}), its northbound database as the plan
 * has it, the pods plugged into their logical ports, and then the plan's addresses and routes on the
 * interfaces OVN plugged ({@link LabBatches#ovnInterfaces}). The plan's bridges ({@code br-submariner}
 * with {@code ovn-k8s-sub0}) are not the lab's: Submariner's route agent makes them, so the lab's
 * agents do ({@link #nodeDatabase} is where they find each node's Open vSwitch).
 *
 * <p>The lab fits OVN to the plan, not the reverse: the management port has the node's CNI address
 * and the router port the address after it, and every MAC is the plan's. So the kernel and the
 * logical network hold what the simulator traces.
 */
public final class PlannedOvnCluster {

    private PlannedOvnCluster() {
    }

    /** What the cluster is made of in this lab, worked out before anything starts. */
    public static OvnClusterSpec spec(Cluster cluster, OvnTopology topology, LabLayout layout) {
        LogicalRouter router = topology.router(OvnLogicalTopology.CLUSTER_ROUTER).orElseThrow(() -> new IllegalArgumentException(
                "the plan of cluster " + cluster.name() + " has no " + OvnLogicalTopology.CLUSTER_ROUTER));
        List<OvnNodeSpec> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            HostNamespace host = layout.requireHost(HostId.node(cluster.name(), node.name()));
            RouterPort toSwitch = router.port(Names.routerToSwitchPort(node.name())).orElseThrow(() -> new IllegalArgumentException(
                    "the plan of cluster " + cluster.name() + " has no router port for node " + node.name()));
            Interface management = host.plan().interfaces().stream().filter(i -> i.name().equals(Names.OVN_K8S_MP0)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("the plan gives node " + node.name() + " no " + Names.OVN_K8S_MP0));
            nodes.add(new OvnNodeSpec(node.name(), host.namespace(), node.link().device(), node.ip(), underlayLength(cluster), toSwitch.network(),
                    toSwitch.address(), node.cniIp(), management.mac().toString()));
        }
        Ipv4Prefix join = Ipv4Prefix.containing(Names.OVN_JOIN_ROUTER_IP, Names.OVN_JOIN_PREFIX_LENGTH);
        return new OvnClusterSpec(cluster.name(), cluster.podCidrs().getFirst(), join, nodes);
    }

    /**
     * Starts the cluster in {@code directory} and plugs everything in; the daemons are left running
     * for the state file's owner to stop ({@link OvnDaemons#stopAllUnder}). On a failure what it
     * started is stopped again before it throws.
     */
    public static OvnCluster start(CommandRunner runner, OvnClusterSpec spec, OvnTopology topology, LabLayout layout, Path directory,
                                   Consumer<String> progress) {
        long start = System.nanoTime();
        OvnCluster cluster = OvnCluster.start(runner, spec, directory, topology);
        try {
            progress.accept("ovn: cluster " + spec.name() + ": databases, ovn-northd and " + spec.nodes().size()
                    + " chassis up, northbound written from the plan (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
            List<HostNamespace> hosts = layout.hosts().stream().filter(h -> h.host().cluster().equals(spec.name())).toList();
            int pods = 0;
            for (HostNamespace host : hosts) {
                if (host.isNode()) {
                    continue;
                }
                for (Interface iface : host.plan().interfaces()) {
                    if (OvnTopology.isSegment(iface.segment())) {
                        String node = host.plan().node().orElseThrow();
                        cluster.plugPod(node, host.namespace(), logicalPort(topology, node, iface), iface.addresses().getFirst(),
                                iface.mac().toString());
                        pods++;
                    }
                }
            }
            for (HostNamespace host : hosts) {
                Optional<String> batch = LabBatches.ovnInterfaces(host);
                if (batch.isPresent()) {
                    runner.run(Command.of("ip", "-batch", "-").withStdin(batch.get()).inNamespace(host.namespace()));
                }
            }
            // Every chassis has applied the pods' ports before the agents start.
            cluster.controlPlane().awaitChassis();
            progress.accept("ovn: cluster " + spec.name() + ": " + pods + " pods plugged, the plan's addresses and routes on OVN's ports"
                    + " (" + (System.nanoTime() - start) / 1_000_000 + " ms); " + topology.bridges().size() + " bridges left to the agents");
            cluster.release();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Where {@code lab up} keeps the files of OVN-Kubernetes cluster {@code cluster} of the lab whose files are in {@code labDirectory}. */
    public static Path directory(Path labDirectory, String cluster) {
        return labDirectory.resolve("ovn-" + cluster);
    }

    /** The OVSDB remote of that cluster's northbound database, for {@code ovn-nbctl --db}. */
    public static String northbound(Path labDirectory, String cluster) {
        return "unix:" + directory(labDirectory, cluster).resolve("central").resolve("nb.sock");
    }

    /** The OVSDB remote of node {@code node}'s Open vSwitch in that cluster, for {@code ovs-vsctl --db}. */
    public static String nodeDatabase(Path labDirectory, String cluster, String node) {
        return "unix:" + OvnChassis.databaseSocket(directory(labDirectory, cluster).resolve(node));
    }

    /**
     * The length of the smallest prefix holding every node's address. The lab's underlay addresses
     * are /32 with a host route per peer ({@link LabBatches#hostBatch}), but ovs-vswitchd learns only
     * the kernel's own routes (proto kernel) and takes a tunnel's source from an address of breth0 in
     * the route's subnet ({@code ovs/route/add} fails likewise): on breth0 the node's address gets the
     * prefix that covers its peers, whose subnet route ovs-vswitchd then learns, or OVN's flows would
     * end in a Geneve output with nowhere to send the packet.
     */
    static int underlayLength(Cluster cluster) {
        int length = 32;
        Node first = cluster.nodes().getFirst();
        while (length > 8) {
            int candidate = length;
            if (cluster.nodes().stream().allMatch(n -> Ipv4Prefix.containing(first.ip(), candidate).contains(n.ip()))) {
                return length;
            }
            length--;
        }
        return length;
    }

    /** The pod's port in the plan: the port of its node's switch with the pod's address. */
    private static String logicalPort(OvnTopology topology, String node, Interface iface) {
        LogicalSwitch nodeSwitch = topology.logicalSwitch(node).orElseThrow(() -> new IllegalArgumentException(
                "the plan of cluster " + topology.cluster() + " has no logical switch " + node));
        return nodeSwitch.ports().stream().filter(p -> p.kind() == LogicalSwitch.Kind.POD && p.address().equals(Optional.of(iface.addresses().getFirst())))
                .map(LogicalSwitch.SwitchPort::name).findFirst().orElseThrow(() -> new IllegalArgumentException("the plan's switch " + node
                        + " has no port for address " + iface.addresses().getFirst()));
    }
}
