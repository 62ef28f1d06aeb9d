package io.periscope.dataplane.ovs;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.Names;
import io.periscope.plan.ovn.OvsBridge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Keeps a node's Submariner bridges ({@code br-submariner} with {@code ovn-k8s-sub0}) as the plan
 * has them, level-driven: each {@link #program} reads the node's Open vSwitch database and the
 * ports' kernel side, and runs only the difference ({@link BridgeDiff}): one {@code ovs-vsctl}
 * transaction, then {@code ip} (and on the userspace datapath {@code ethtool}). Run again at once,
 * it runs nothing but the reads.
 *
 * <p>It owns the bridges named {@link #OWNED_BRIDGES} and those the last plan it applied named: it
 * deletes such a bridge when the plan drops it (as upstream's {@code LegacyCleanup} deletes
 * {@code br-submariner} since v0.16), and nothing else. When a program fails the changes run before
 * it are undone, so the node is left as it was read.
 */
public final class OvsBridgeProgrammer {

    /** Submariner's bridge names: upstream's route agent made and deletes {@code br-submariner} by name. */
    public static final Set<String> OWNED_BRIDGES = Set.of(Names.BR_SUBMARINER);

    private final CommandRunner runner;
    private final Optional<String> database;
    private Set<String> lastApplied = Set.of();

    /**
     * @param runner   runs programs in the node's network namespace (the ports' addresses are set there)
     * @param database the node's OVSDB remote, {@code unix:/run/openvswitch/db.sock}; empty for ovs-vsctl's default
     */
    public OvsBridgeProgrammer(CommandRunner runner, Optional<String> database) {
        this.runner = runner;
        this.database = database;
    }

    /**
     * Brings the node to {@code wanted}.
     *
     * @return the changes run, none when the node had them already
     * @throws BridgeProgrammingFailed when a program failed (what ran before it was undone)
     * @throws IllegalStateException   when the node has no integration bridge yet (nothing was changed)
     * @throws CommandFailedException  when the node could not be read (nothing was changed)
     */
    public synchronized List<BridgeChange> program(List<NodeBridge> wanted) {
        Set<String> owned = owned(wanted);
        OvsPicture before = read(owned, wanted);
        List<BridgeChange> changes = BridgeDiff.between(before, wanted, owned);
        List<BridgeChange> applied = new ArrayList<>();
        try {
            run(changes, applied);
        } catch (CommandFailedException failure) {
            List<BridgeChange> undo = BridgeDiff.undo(applied, before);
            try {
                run(undo, new ArrayList<>());
            } catch (CommandFailedException undoFailed) {
                throw new BridgeProgrammingFailed(failure, applied, Optional.of(undoFailed));
            }
            throw new BridgeProgrammingFailed(failure, applied, Optional.empty());
        }
        Set<String> names = new LinkedHashSet<>();
        wanted.forEach(b -> names.add(b.bridge()));
        lastApplied = Set.copyOf(names);
        return changes;
    }

    /** What {@link #program} would change now, changing nothing. */
    public synchronized List<BridgeChange> pending(List<NodeBridge> wanted) {
        Set<String> owned = owned(wanted);
        return BridgeDiff.between(read(owned, wanted), wanted, owned);
    }

    private Set<String> owned(List<NodeBridge> wanted) {
        Set<String> owned = new LinkedHashSet<>(OWNED_BRIDGES);
        owned.addAll(lastApplied);
        return owned;
    }

    /**
     * Runs {@code changes} in order, each run of OVS changes as one {@code ovs-vsctl} transaction
     * (all or nothing), adding each change to {@code applied} once its program succeeded.
     */
    private void run(List<BridgeChange> changes, List<BridgeChange> applied) {
        List<BridgeChange> transaction = new ArrayList<>();
        for (BridgeChange change : changes) {
            if (change.kernel().isPresent()) {
                commit(transaction, applied);
                runner.run(new Command(change.kernel().get(), ""));
                applied.add(change);
            } else {
                transaction.add(change);
            }
        }
        commit(transaction, applied);
    }

    private void commit(List<BridgeChange> transaction, List<BridgeChange> applied) {
        if (transaction.isEmpty()) {
            return;
        }
        List<String> argv = vsctl();
        for (BridgeChange change : transaction) {
            for (List<String> command : change.vsctl()) {
                argv.add("--");
                argv.addAll(command);
            }
        }
        // Without --no-wait ovs-vsctl returns once ovs-vswitchd made the devices, which the kernel changes need.
        runner.run(new Command(argv, ""));
        applied.addAll(transaction);
        transaction.clear();
    }

    private List<String> vsctl() {
        List<String> argv = new ArrayList<>(List.of("ovs-vsctl"));
        database.ifPresent(db -> argv.add("--db=" + db));
        argv.add("--timeout=15");
        return argv;
    }

    /**
     * The node's Submariner-style bridges as its Open vSwitch and kernel hold them, whoever made
     * them: each bridge that {@code ovn-bridge-mappings} maps to a network, with each of its internal
     * ports (not the bridge's own) and the port's first IPv4 address. What a test reads back.
     */
    public synchronized List<OvsBridge> mappedBridges(String node) {
        Set<String> mapped = new LinkedHashSet<>();
        OvsPicture first = read(Set.of(), List.of());
        first.mappings().forEach(m -> mapped.add(m.substring(m.indexOf(':') + 1)));
        OvsPicture picture = read(mapped, List.of());
        List<OvsBridge> rows = new ArrayList<>();
        for (String mapping : picture.mappings()) {
            String network = mapping.substring(0, mapping.indexOf(':'));
            OvsPicture.Bridge bridge = picture.bridges().get(mapping.substring(mapping.indexOf(':') + 1));
            if (bridge == null) {
                continue;
            }
            for (OvsPicture.Port port : bridge.interfaces().values()) {
                OvsPicture.PortKernel kernel = picture.kernel().get(port.name());
                if (port.type().equals("internal") && !port.name().equals(bridge.name()) && kernel != null && !kernel.cidrs().isEmpty()) {
                    String cidr = kernel.cidrs().getFirst();
                    rows.add(new OvsBridge(node, bridge.name(), port.name(), Ipv4Address.parse(cidr.substring(0, cidr.indexOf('/'))),
                            Integer.parseInt(cidr.substring(cidr.indexOf('/') + 1)), network));
                }
            }
        }
        return rows;
    }

    /** The database's bridges and mappings, and the kernel side of the internal ports of the bridges wanted or owned. */
    OvsPicture read(Set<String> owned, List<NodeBridge> wanted) {
        List<String> argv = vsctl();
        argv.addAll(List.of("--format=json", "--data=json", "--", "--columns=name,datapath_type,ports", "list", "Bridge",
                "--", "--columns=_uuid,name,interfaces", "list", "Port", "--", "--columns=_uuid,name,type,mac,mtu_request", "list", "Interface",
                "--", "--columns=external_ids", "list", "Open_vSwitch"));
        VsctlListParser.Database database = VsctlListParser.parse(runner.run(new Command(argv, "")).stdout());
        Set<String> ports = new LinkedHashSet<>();
        wanted.forEach(b -> ports.add(b.internalPort()));
        for (String bridge : owned) {
            OvsPicture.Bridge found = database.bridges().get(bridge);
            if (found != null) {
                found.interfaces().values().stream().filter(p -> p.type().equals("internal") && !p.name().equals(bridge))
                        .forEach(p -> ports.add(p.name()));
            }
        }
        boolean netdev = Optional.ofNullable(database.bridges().get(database.integrationBridge()))
                .map(b -> b.datapathType().equals("netdev")).orElse(false);
        Map<String, OvsPicture.PortKernel> kernel = new TreeMap<>();
        for (String port : ports) {
            readKernel(port, netdev).ifPresent(k -> kernel.put(port, k));
        }
        return new OvsPicture(database.integrationBridge(), database.bridges(), database.mappings(), kernel);
    }

    private Optional<OvsPicture.PortKernel> readKernel(String port, boolean netdev) {
        CommandResult shown = runner.execute(Command.of("ip", "-4", "-j", "addr", "show", "dev", port));
        if (!shown.succeeded()) {
            return Optional.empty();    // no such device (yet)
        }
        VsctlListParser.Link link = VsctlListParser.link(shown.stdout());
        Optional<Boolean> tx = Optional.empty();
        if (netdev) {
            tx = Optional.of(runner.run(Command.of("ethtool", "-k", port)).stdout().lines()
                    .anyMatch(l -> l.strip().equals("tx-checksumming: on")));
        }
        return Optional.of(new OvsPicture.PortKernel(link.cidrs(), link.up(), tx));
    }
}
