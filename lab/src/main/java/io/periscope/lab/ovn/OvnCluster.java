package io.periscope.lab.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.ovn.NbctlNorthbound;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.dataplane.ovn.NorthboundScope;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ovn.OvnTopology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One cluster on OVN-Kubernetes made real in the lab's node namespaces: its control plane
 * ({@link OvnControlPlane}) in the control-plane node's namespace, a chassis ({@link OvnChassis}) in
 * every node's namespace, the logical topology OVN-Kubernetes builds ({@link OvnLogicalTopology}),
 * each node's management port {@code ovn-k8s-mp0}, and pods attached as logical switch ports
 * ({@link #attachPod}). The namespaces themselves are the caller's: the cluster only runs daemons in
 * them and adds devices to them.
 *
 * <p>Everything the cluster starts keeps its files under one run directory, a subdirectory per
 * owner ({@code central}, then one per node), and {@link #close} stops every daemon by its pid file
 * and removes the directory. So does a SIGINT or SIGTERM of this JVM before {@code close} (a
 * shutdown hook), and so does {@link OvnDaemons#stopAllUnder} from another process, given the
 * directory: the daemons detach from this JVM, so nothing else would end them.
 */
public final class OvnCluster implements AutoCloseable {

    /** A unix socket's path is at most 107 bytes; the longest the cluster makes is a node's {@code br-int.snoop}. */
    private static final int SOCKET_PATH_LIMIT = 107;

    private final CommandRunner runner;
    private final OvnClusterSpec spec;
    private final Path directory;
    private final OvnControlPlane controlPlane;
    private final Map<String, OvnChassis> chassis = new LinkedHashMap<>();
    private final List<OvnPod> pods = new ArrayList<>();
    private final Optional<OvnTopology> plan;
    private final Thread onSignal;
    private boolean closed;

    private OvnCluster(CommandRunner runner, OvnClusterSpec spec, Path directory, Optional<OvnTopology> plan) {
        this.runner = runner;
        this.spec = spec;
        this.directory = directory;
        this.plan = plan;
        this.controlPlane = new OvnControlPlane(runner, spec.name(), directory.resolve("central"));
        for (OvnNodeSpec node : spec.nodes()) {
            chassis.put(node.name(), new OvnChassis(runner, node, directory.resolve(node.name())));
        }
        this.onSignal = Thread.ofPlatform().name("ovn-cluster-" + spec.name() + "-teardown").unstarted(this::tearDown);
    }

    /**
     * Starts the cluster's control plane and chassis, writes its logical topology, adds every
     * node's management port, and returns once every chassis has applied it. On a failure
     * everything started so far is stopped again and the failure, naming the daemon and its log,
     * is thrown.
     *
     * @param directory a directory of this cluster's own that does not exist yet
     */
    public static OvnCluster start(CommandRunner runner, OvnClusterSpec spec, Path directory) {
        return start(runner, spec, directory, Optional.empty());
    }

    /**
     * The same with the planner's logical network: its northbound rows, OVN-Kubernetes' and
     * Submariner's, are written by the agents' {@link NorthboundProgrammer}, and the lab adds only
     * the gateway routers, which the plan leaves out ({@link OvnLogicalTopology#gatewayRouters}).
     * The management ports then get no address: the plan's host layer gives them theirs, and the
     * pods are plugged with {@link #plugPod} into the ports the plan already holds.
     */
    public static OvnCluster start(CommandRunner runner, OvnClusterSpec spec, Path directory, OvnTopology plan) {
        return start(runner, spec, directory, Optional.of(plan));
    }

    private static OvnCluster start(CommandRunner runner, OvnClusterSpec spec, Path directory, Optional<OvnTopology> plan) {
        OvnPrograms.datapathUnavailable().ifPresent(why -> {
            throw new IllegalStateException(why);
        });
        for (OvnNodeSpec node : spec.nodes()) {
            Path longest = directory.resolve(node.name()).resolve("breth0.snoop");
            if (longest.toString().length() > SOCKET_PATH_LIMIT) {
                throw new IllegalArgumentException("run directory " + directory + " is too deep for OVS's unix sockets (" + longest
                        + " is longer than " + SOCKET_PATH_LIMIT + " bytes)");
            }
        }
        if (Files.exists(directory)) {
            throw new IllegalStateException("run directory " + directory + " exists already: another OVN cluster of the lab, or one"
                    + " left behind (OvnDaemons.stopAllUnder removes it)");
        }
        OvnCluster cluster = new OvnCluster(runner, spec, directory, plan);
        Runtime.getRuntime().addShutdownHook(cluster.onSignal);
        try {
            cluster.build();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void build() {
        try {
            Files.createDirectories(directory.resolve("central"));
            for (OvnNodeSpec node : spec.nodes()) {
                Files.createDirectories(directory.resolve(node.name()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
        controlPlane.start(spec.controlPlaneNode().namespace());
        for (OvnChassis node : chassis.values()) {
            node.start(controlPlane.southbound());
        }
        for (OvnChassis node : chassis.values()) {
            awaitChassisRegistered(node);
            for (OvnChassis peer : chassis.values()) {
                if (peer != node) {
                    node.knowPeer(peer);
                }
            }
        }
        if (plan.isPresent()) {
            NbctlNorthbound northbound = new NbctlNorthbound(runner, controlPlane.northbound());
            new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES).program(plan.get());
            new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER).program(plan.get());
            controlPlane.nbctl(OvnLogicalTopology.gatewayRouters(spec));
        } else {
            controlPlane.nbctl(OvnLogicalTopology.cluster(spec));
        }
        for (OvnChassis node : chassis.values()) {
            node.addManagementPort(spec, plan.isEmpty());
        }
        for (OvnChassis node : chassis.values()) {
            awaitPortUp(node, "k8s-" + node.node().name());
        }
        controlPlane.awaitChassis();
    }

    /** Waits until the node's ovn-controller has registered its chassis in the southbound database. */
    private void awaitChassisRegistered(OvnChassis node) {
        try {
            controlPlane.sbctl("--timeout=20", "wait-until", "Chassis", node.node().name());
        } catch (CommandFailedException e) {
            throw new IllegalStateException("ovn-controller of node " + node.node().name() + " did not register its chassis in cluster "
                    + spec.name() + "'s southbound database within 20 s" + OvnDaemons.logTail(node.controllerLog()), e);
        }
    }

    private void awaitPortUp(OvnChassis node, String logicalPort) {
        try {
            controlPlane.nbctl(List.of(List.of("wait-until", "logical_switch_port", logicalPort, "up=true")));
        } catch (CommandFailedException e) {
            throw new IllegalStateException("ovn-controller of node " + node.node().name() + " did not bind logical port " + logicalPort
                    + " within 20 s" + OvnDaemons.logTail(node.controllerLog()), e);
        }
    }

    /**
     * Attaches the pod in namespace {@code podNamespace} (which the caller created) to {@code node}'s
     * logical switch as {@code logicalPort}: a veth whose pod end is {@code eth0} with OVN-Kubernetes'
     * MAC for {@code address} and a default route through the node switch's router port, whose
     * node end br-int binds to the port. Returns once ovn-controller reports the port up.
     */
    public OvnPod attachPod(String node, String podNamespace, String logicalPort, Ipv4Address address) {
        OvnChassis on = chassis(node);
        OvnNodeSpec spec = on.node();
        if (!spec.podSubnet().contains(address) || address.equals(spec.gateway()) || address.equals(spec.managementAddress())) {
            throw new IllegalArgumentException("pod address " + address + " is not a pod's in node " + node + "'s subnet " + spec.podSubnet());
        }
        // veth names have 15 bytes at most; OVN-Kubernetes uses the container id's start, the lab a hash of the port.
        String device = "ovn" + HexFormat.of().toHexDigits(logicalPort.hashCode());
        runner.run(Command.of("ip", "link", "add", device, "type", "veth", "peer", "name", "eth0", "netns", podNamespace)
                .inNamespace(spec.namespace()));
        inPod(podNamespace, "ip", "link", "set", "lo", "up");
        inPod(podNamespace, "ip", "link", "set", "eth0", "address", OvnClusterSpec.macOf(address), "mtu", String.valueOf(OvnClusterSpec.POD_MTU));
        inPod(podNamespace, "ip", "addr", "add", address + "/" + spec.podSubnet().length(), "dev", "eth0");
        inPod(podNamespace, "ip", "link", "set", "eth0", "up");
        inPod(podNamespace, "ip", "route", "add", "default", "via", spec.gateway().toString(), "dev", "eth0");
        // The userspace datapath does not complete checksums the veth left to "hardware": TCP would be dropped.
        inPod(podNamespace, "ethtool", "-K", "eth0", "tx", "off");
        controlPlane.nbctl(OvnLogicalTopology.pod(spec, logicalPort, address));
        on.bindPort(device, logicalPort);
        awaitPortUp(on, logicalPort);
        OvnPod pod = new OvnPod(node, podNamespace, logicalPort, device, address);
        pods.add(pod);
        return pod;
    }

    /**
     * Plugs the pod in {@code podNamespace} into logical port {@code logicalPort} of the planned
     * network, which already holds the port with the pod's MAC and address: a veth whose pod end is
     * {@code eth0} with {@code mac}, up, and whose node end br-int binds to the port. The address and
     * routes are the caller's to give (the lab: the plan's). Returns once ovn-controller reports the
     * port up.
     */
    public OvnPod plugPod(String node, String podNamespace, String logicalPort, Ipv4Address address, String mac) {
        OvnChassis on = chassis(node);
        String device = "ovn" + HexFormat.of().toHexDigits(logicalPort.hashCode());
        runner.run(Command.of("ip", "link", "add", device, "type", "veth", "peer", "name", "eth0", "netns", podNamespace)
                .inNamespace(on.node().namespace()));
        inPod(podNamespace, "ip", "link", "set", "eth0", "address", mac, "mtu", String.valueOf(OvnClusterSpec.POD_MTU), "up");
        // The userspace datapath does not complete checksums the veth left to "hardware": TCP would be dropped.
        inPod(podNamespace, "ethtool", "-K", "eth0", "tx", "off");
        on.bindPort(device, logicalPort);
        awaitPortUp(on, logicalPort);
        OvnPod pod = new OvnPod(node, podNamespace, logicalPort, device, address);
        pods.add(pod);
        return pod;
    }

    /**
     * Lets the daemons outlive this JVM: {@code lab up} hands them to the state file, from which
     * {@code lab down} stops them ({@link OvnDaemons#stopAllUnder}).
     */
    public void release() {
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs already: the lab is being stopped anyway
        }
    }

    private void inPod(String podNamespace, String... argv) {
        runner.run(Command.of(argv).inNamespace(podNamespace));
    }

    public OvnChassis chassis(String node) {
        OvnChassis found = chassis.get(node);
        if (found == null) {
            throw new IllegalArgumentException("cluster " + spec.name() + " has no node " + node + " (it has " + chassis.keySet() + ")");
        }
        return found;
    }

    public OvnControlPlane controlPlane() {
        return controlPlane;
    }

    public OvnClusterSpec spec() {
        return spec;
    }

    public List<OvnPod> pods() {
        return List.copyOf(pods);
    }

    public Path directory() {
        return directory;
    }

    /** Every daemon the cluster started, control plane first. */
    public List<OvnDaemon> daemons() {
        List<OvnDaemon> all = new ArrayList<>(controlPlane.daemons());
        chassis.values().forEach(c -> all.addAll(c.daemons()));
        return all;
    }

    /** Stops every daemon the cluster started and removes its run directory; the namespaces stay the caller's. */
    @Override
    public void close() {
        tearDown();
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs, or has run, tearDown itself
        }
    }

    private synchronized void tearDown() {
        if (closed) {
            return;
        }
        closed = true;
        for (OvnChassis node : chassis.values()) {
            if (Files.exists(directory.resolve(node.node().name()).resolve("ovs-vswitchd.pid"))) {
                node.removeBridges();
            }
        }
        OvnDaemons.stopAllUnder(directory);
    }
}
