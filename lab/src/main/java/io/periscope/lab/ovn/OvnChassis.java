package io.periscope.lab.ovn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.periscope.lab.ovn.OvnPrograms.program;

/**
 * One node as an OVN chassis, inside the node's namespace: its own Open vSwitch database
 * ({@code ovsdb-server}), {@code ovs-vswitchd} with the userspace datapath, and
 * {@code ovn-controller}, with their files in {@code DIR/NODE}.
 *
 * <p>There is no openvswitch kernel module here, so both bridges are {@code datapath_type=netdev}:
 * ovs-vswitchd forwards in its own threads, reading the node's veths through packet sockets, and its
 * internal ports are tap devices. {@code breth0} takes over the underlay device and the node's
 * address (OVN-Kubernetes' shared gateway mode does the same); {@code br-int} is OVN's integration
 * bridge. Geneve works in userspace: ovs-vswitchd pushes and pops the tunnel header itself
 * ({@code tnl_push}/{@code tnl_pop}), routing the outer packet by the routes it learns from the
 * namespace's kernel table (the node's subnet on {@code breth0}) and the neighbours it snoops on
 * {@code breth0}. No kernel Geneve device is involved, which is why the missing geneve module does
 * not matter.
 */
public final class OvnChassis {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CommandRunner runner;
    private final OvnNodeSpec node;
    private final Path directory;
    private final List<OvnDaemon> daemons = new ArrayList<>();
    private String underlayMac = "";

    OvnChassis(CommandRunner runner, OvnNodeSpec node, Path directory) {
        this.runner = runner;
        this.node = node;
        this.directory = directory;
    }

    public OvnNodeSpec node() {
        return node;
    }

    public List<OvnDaemon> daemons() {
        return List.copyOf(daemons);
    }

    /** Starts the node's Open vSwitch, builds breth0 and br-int, and starts ovn-controller against {@code southbound}. */
    void start(String southbound) {
        String owner = "node " + node.name();
        Path db = directory.resolve("conf.db");
        runner.run(Command.of(program("ovsdb-tool"), "create", db.toString(), OvnPrograms.OvnSchemas.VSWITCH.toString()));
        daemons.add(OvnDaemons.start("ovsdb-server", owner, node.namespace(), directory, "ovsdb-server", true,
                List.of("--remote=punix:" + databaseSocket(), db.toString())));
        vsctl("--no-wait", "init");
        daemons.add(OvnDaemons.start("ovs-vswitchd", owner, node.namespace(), directory, "ovs-vswitchd", true,
                List.of("unix:" + databaseSocket())));
        takeOverUnderlay();
        vsctl("add-br", "br-int", "--", "set", "bridge", "br-int", "datapath_type=netdev", "fail_mode=secure",
                "other_config:disable-in-band=true");
        vsctl("set", "open_vswitch", ".", "external_ids:system-id=" + node.name(), "external_ids:ovn-remote=" + southbound,
                "external_ids:ovn-encap-type=geneve", "external_ids:ovn-encap-ip=" + node.underlayAddress(),
                "external_ids:ovn-bridge=br-int");
        daemons.add(OvnDaemons.start("ovn-controller", owner, node.namespace(), directory, "ovn-controller", false,
                List.of("unix:" + databaseSocket())));
    }

    /**
     * Puts the underlay device into {@code breth0} and moves the node's address, and the routes
     * through the device, onto {@code breth0}: ovs-vswitchd sends tunnelled packets only out of a
     * bridge whose own port holds the source address. The device itself then must not answer for
     * the address any more: ARP on it is ignored ({@code arp_ignore=8}) and so is IPv6.
     */
    private void takeOverUnderlay() {
        String device = node.underlayDevice();
        String mac = readMac(device);
        underlayMac = mac;
        List<String> routes = routesThrough(device);
        vsctl("add-br", "breth0", "--", "set", "bridge", "breth0", "datapath_type=netdev", "other_config:hwaddr=\"" + mac + "\"",
                "--", "add-port", "breth0", device);
        String address = node.underlayAddress() + "/" + node.underlayLength();
        // Whatever length the device had the address with: breth0 gets it with the spec's.
        inNode("ip", "-4", "addr", "flush", "dev", device);
        inNode("sysctl", "-qw", "net.ipv4.conf." + device + ".arp_ignore=8", "net.ipv6.conf." + device + ".disable_ipv6=1");
        inNode("ip", "addr", "add", address, "dev", "breth0");
        inNode("ip", "link", "set", "breth0", "up");
        for (String route : routes) {
            List<String> argv = new ArrayList<>(List.of("ip", "route", "replace"));
            argv.addAll(List.of(route.split(" ")));
            argv.addAll(List.of("dev", "breth0"));
            runner.run(new Command(argv, "").inNamespace(node.namespace()));
        }
    }

    private String readMac(String device) {
        CommandResult link = runner.run(Command.of("ip", "-j", "link", "show", "dev", device).inNamespace(node.namespace()));
        return json(link.stdout()).path(0).path("address").asText();
    }

    /** The routes through {@code device} other than its own subnet's (the kernel adds that one), as "PREFIX [via GATEWAY]". */
    private List<String> routesThrough(String device) {
        CommandResult shown = runner.run(Command.of("ip", "-4", "-j", "route", "show", "dev", device).inNamespace(node.namespace()));
        List<String> routes = new ArrayList<>();
        for (JsonNode route : json(shown.stdout())) {
            if (route.path("protocol").asText().equals("kernel")) {
                continue;
            }
            routes.add(route.path("dst").asText() + (route.has("gateway") ? " via " + route.path("gateway").asText() : ""));
        }
        return routes;
    }

    /** The MAC of breth0, which it takes from the underlay device: a peer's tunnel packets are sent to it. */
    String underlayMac() {
        return underlayMac;
    }

    /**
     * Tells ovs-vswitchd the MAC of a peer node's tunnel endpoint. Without it the first packet
     * towards the peer is dropped: the userspace datapath cannot push a tunnel header without the
     * outer destination MAC, so it sends an ARP request instead and learns the answer by snooping
     * {@code breth0}. Such an entry ages out after a long idle time like a learnt one, and is then
     * learnt again the same way (one packet lost), which is what a real node's first packet meets too.
     */
    void knowPeer(OvnChassis peer) {
        appctl("tnl/neigh/set", "breth0", peer.node().underlayAddress().toString(), peer.underlayMac());
    }

    /**
     * Adds OVN-Kubernetes' management port {@code ovn-k8s-mp0}, the node's own leg into its logical
     * switch (logical port {@code k8s-NODE}), with its MAC. With {@code addressed}, also its address
     * (in the node subnet) and a route to the cluster CIDR through the node switch's router port;
     * without, the caller gives it those (the lab: the plan's addresses and routes).
     */
    void addManagementPort(OvnClusterSpec cluster, boolean addressed) {
        vsctl("add-port", "br-int", "ovn-k8s-mp0", "--", "set", "interface", "ovn-k8s-mp0", "type=internal",
                "external_ids:iface-id=k8s-" + node.name());
        inNode("ip", "link", "set", "ovn-k8s-mp0", "address", node.managementMac(), "mtu", String.valueOf(OvnClusterSpec.POD_MTU));
        inNode("ip", "link", "set", "ovn-k8s-mp0", "up");
        // The tap's checksums are left to "hardware" that is ovs-vswitchd, which does not fill them in.
        inNode("ethtool", "-K", "ovn-k8s-mp0", "tx", "off");
        if (addressed) {
            inNode("ip", "addr", "add", node.managementAddress() + "/" + node.podSubnet().length(), "dev", "ovn-k8s-mp0");
            inNode("ip", "route", "replace", cluster.clusterCidr().toString(), "via", node.gateway().toString(), "dev", "ovn-k8s-mp0");
        }
    }

    /**
     * Binds logical port {@code logicalPort} to the node's veth end {@code device} in br-int: what
     * the CNI plugin of OVN-Kubernetes does for a pod. That end must neither answer ARP for the
     * node's own addresses nor speak IPv6: it is a cable into OVN, not an interface of the node.
     */
    void bindPort(String device, String logicalPort) {
        inNode("sysctl", "-qw", "net.ipv4.conf." + device + ".arp_ignore=8", "net.ipv6.conf." + device + ".disable_ipv6=1");
        inNode("ip", "link", "set", device, "up");
        vsctl("add-port", "br-int", device, "--", "set", "interface", device, "external_ids:iface-id=" + logicalPort);
    }

    /**
     * Removes the node's bridges (the lab's two and the agents' br-submariner) while ovs-vswitchd still runs, so that it closes its tap devices and
     * packet sockets in order; what is left when this fails is removed with the namespace.
     */
    void removeBridges() {
        runner.execute(Command.of(program("ovs-vsctl"), "--db=unix:" + databaseSocket(), "--timeout=5", "--if-exists", "del-br", "br-int",
                "--", "--if-exists", "del-br", "breth0", "--", "--if-exists", "del-br", "br-submariner"));
    }

    /** {@code ovs-appctl} against this node's ovs-vswitchd (ofproto/trace, dpctl/dump-flows, tnl/neigh/show). */
    public String appctl(String... arguments) {
        List<String> argv = new ArrayList<>(List.of(program("ovs-appctl"), "-t", directory.resolve("ovs-vswitchd.ctl").toString()));
        argv.addAll(List.of(arguments));
        return runner.run(new Command(argv, "")).stdout();
    }

    /**
     * {@code ovs-vsctl} against this node's database. Without {@code --no-wait} it waits until
     * ovs-vswitchd has applied the change, which makes it the readiness check of ovs-vswitchd.
     */
    String vsctl(String... arguments) {
        List<String> argv = new ArrayList<>(List.of(program("ovs-vsctl"), "--db=unix:" + databaseSocket(), "--timeout=20"));
        argv.addAll(List.of(arguments));
        try {
            return runner.run(new Command(argv, "")).stdout();
        } catch (CommandFailedException e) {
            throw new IllegalStateException("node " + node.name() + ": " + e.getMessage()
                    + OvnDaemons.logTail(directory.resolve("ovs-vswitchd.log")), e);
        }
    }

    /** The path of ovn-controller's log: the first place to look when a port does not come up. */
    Path controllerLog() {
        return directory.resolve("ovn-controller.log");
    }

    private void inNode(String... argv) {
        runner.run(Command.of(argv).inNamespace(node.namespace()));
    }

    private Path databaseSocket() {
        return databaseSocket(directory);
    }

    /** The socket of the Open vSwitch database of the node whose files are in {@code nodeDirectory}. */
    static Path databaseSocket(Path nodeDirectory) {
        return nodeDirectory.resolve("db.sock");
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("ip printed JSON that cannot be read", e);
        }
    }
}
