package io.periscope.lab.up;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.agent.LayerAgent;
import io.periscope.lab.agent.LayerAgents;
import io.periscope.lab.agent.NodeOvs;
import io.periscope.lab.dns.ClusterDns;
import io.periscope.lab.dns.ClusterDnsRules;
import io.periscope.lab.dns.OvnClusterDns;
import io.periscope.lab.dns.PodResolverFiles;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.HostStep;
import io.periscope.lab.layout.LabBatches;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.layout.SwitchNamespace;
import io.periscope.lab.layout.SysctlSettings;
import io.periscope.lab.link.DelayedLink;
import io.periscope.lab.link.LinkPlan;
import io.periscope.lab.link.LinkReconciler;
import io.periscope.lab.machine.AddressConflict;
import io.periscope.lab.machine.AddressSpaceCheck;
import io.periscope.lab.machine.MachineCapacity;
import io.periscope.lab.machine.MachineNetwork;
import io.periscope.lab.netns.NamespaceWorkers;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.netns.SysctlWriter;
import io.periscope.lab.ovn.GatewayMacLearning;
import io.periscope.lab.ovn.OvnCluster;
import io.periscope.lab.ovn.OvnClusterSpec;
import io.periscope.lab.ovn.OvnPrograms;
import io.periscope.lab.ovn.PlannedOvnCluster;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.down.LabTeardown;
import io.periscope.lab.rollback.LabRollback;
import io.periscope.lab.rtnetlink.HostSetupOverNetlink;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.lab.wire.HashResetProgram;
import io.periscope.lab.wire.WireBatches;
import io.periscope.lab.wireguard.WireGuardGateways;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.Node;
import io.periscope.plan.Names;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@code lab up FILE}: builds the topology as network namespaces, programs every node from the plan
 * and returns once every node's agents find nothing left to change.
 *
 * <p>Order matters: namespace-wide sysctls are set before any interface exists (interfaces copy
 * {@code conf.default}); veths are created directly inside their namespaces; the CNI's routes come
 * with the addresses; kube-proxy's chains go in before Periscope's, whose jumps then take the top
 * of the built-in chains as on a real node. Everything created is listed in the state file before
 * it is created, and an interrupted run removes it again.
 */
public final class LabUp {

    private final CommandRunner runner;
    private final LabStateFile stateFile;
    private final LayerAgents agents;
    private final Supplier<Boolean> runningAsRoot;
    private final Supplier<MachineCapacity> capacity;
    private final PodResolverFiles resolverFiles;

    public LabUp(CommandRunner runner, LabStateFile stateFile, LayerAgents agents) {
        this(runner, stateFile, agents, NetworkNamespaces::runningAsRoot, MachineCapacity::read);
    }

    LabUp(CommandRunner runner, LabStateFile stateFile, LayerAgents agents, Supplier<Boolean> runningAsRoot) {
        this(runner, stateFile, agents, runningAsRoot, MachineCapacity::read);
    }

    LabUp(CommandRunner runner, LabStateFile stateFile, LayerAgents agents, Supplier<Boolean> runningAsRoot, Supplier<MachineCapacity> capacity) {
        this(runner, stateFile, agents, runningAsRoot, capacity, PodResolverFiles.SYSTEM);
    }

    LabUp(CommandRunner runner, LabStateFile stateFile, LayerAgents agents, Supplier<Boolean> runningAsRoot, Supplier<MachineCapacity> capacity,
          PodResolverFiles resolverFiles) {
        this.resolverFiles = resolverFiles;
        this.runner = runner;
        this.stateFile = stateFile;
        this.agents = agents;
        this.runningAsRoot = runningAsRoot;
        this.capacity = capacity;
    }

    /**
     * @param progress receives one line per phase (the command line prints them on standard error)
     * @throws TopologyException when the file cannot be used
     * @throws LabRefusal        when not root, when the topology's addresses overlap the machine's, or
     *                           when a lab of this topology is already up
     */
    public LabUpResult run(Path file, Consumer<String> progress) throws TopologyException {
        refuseNonRoot();
        return run(file, TopologyLoader.load(file), progress);
    }

    /** The same, for a topology already loaded from {@code file}, leaving no supervisor (the lab's own tests drive the agents). */
    public LabUpResult run(Path file, ClusterSet topology, Consumer<String> progress) {
        return run(file, topology, progress, Supervision.NONE);
    }

    /**
     * What keeps the agents running once the lab converged: the last step of {@code up}, so that a lab
     * whose supervisor did not start, or that was interrupted while it started, is removed like any
     * half-built one.
     */
    @FunctionalInterface
    public interface Supervision {

        Supervision NONE = (set, hash, progress) -> { };

        void start(ClusterSet set, String hash, Consumer<String> progress);
    }

    /** The same, starting {@code supervisor} as the last step. */
    public LabUpResult run(Path file, ClusterSet topology, Consumer<String> progress, Supervision supervisor) {
        refuseOvn(file, topology, OvnPrograms.datapathUnavailable());
        refuseNonRoot();
        long start = System.nanoTime();
        LabCables cables = LabCables.of(topology);
        cables.substitutions().forEach(note -> progress.accept("cables: " + note));
        ClusterSet set = cables.set();
        ClusterSetPlan plan = Planner.plan(set);
        LabLayout layout = LabLayout.of(plan);
        List<ClusterDns> dns = clusterDns(file, set, layout);
        refuseOverlaps(file, plan);
        refuseExisting(file, layout);
        refuseBeyondCapacity(file, layout);
        progress.accept("plan: " + set.name() + ", " + layout.hosts().size() + " hosts (" + layout.nodes().size() + " nodes), "
                + layout.switches().size() + " switches, " + layout.veths().size() + " veth pairs; namespaces " + layout.names().prefix() + "* ("
                + (System.nanoTime() - start) / 1_000_000 + " ms)");

        LabState state = new LabState(set.name(), TopologySource.of(file), layout.names().hash(), layout.namespaces(), LabState.BUILDING);
        // Armed before the first write: a signal between the two would otherwise leave a state file of nothing.
        try (LabRollback rollback = LabRollback.arm(why -> removeWhatWasCreated(state, why, progress), progress,
                "remove what is left with 'lab down " + file + "'")) {
            try {
                rollback.run(() -> stateFile.write(state));
                try {
                    build(set, plan, layout, dns, state, progress, rollback);
                } finally {
                    agents.close();
                }
                rollback.run(() -> stateFile.write(stateFile.read(state.hash()).orElse(state).withState(LabState.CONVERGED)));
                rollback.run(() -> supervisor.start(set, state.hash(), progress));
                // The last line is printed as the last step: a lab that said it is up stays up, one that did not is removed.
                rollback.finish(() -> progress.accept("up: " + set.name() + " converged in " + (System.nanoTime() - start) / 1_000_000 + " ms"));
            } catch (RuntimeException e) {
                rollback.undoNow();
                throw e;
            }
        }
        return new LabUpResult(layout, (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * What an unfinished {@code up} created, as the state file lists it by now (the {@code wireguard-go}
     * daemons and the supervisor started since the first write), removed; the teardown skips what is
     * already gone, so it can be repeated.
     */
    private void removeWhatWasCreated(LabState first, String why, Consumer<String> progress) {
        progress.accept("lab up " + why + ": removing what it created, " + first.namespaces().size() + " namespaces of " + first.topology());
        new LabTeardown(runner, stateFile).remove(stateFile.read(first.hash()).orElse(first), progress);
    }

    /**
     * An OVN-Kubernetes cluster runs on OVN's own datapath (ovs-vswitchd, ovn-controller, the
     * databases); without those programs the lab refuses it rather than build it as a routed CNI,
     * which would quietly test a kube-proxy cluster instead.
     */
    static void refuseOvn(Path file, ClusterSet topology, Optional<String> datapathUnavailable) {
        List<String> ovn = topology.clusters().stream().filter(c -> c.cni() == Cni.OVN_KUBERNETES).map(Cluster::name).toList();
        if (!ovn.isEmpty() && datapathUnavailable.isPresent()) {
            throw new LabRefusal(file + ": cluster" + (ovn.size() > 1 ? "s " : " ") + String.join(", ", ovn)
                    + " use" + (ovn.size() > 1 ? "" : "s") + " cni: ovn-kubernetes, and this machine cannot run OVN: "
                    + datapathUnavailable.get()
                    + "\nor trace the file with the simulator ('periscope trace " + file + "'), which models OVN's logical routers");
        }
    }

    private void refuseNonRoot() {
        if (!runningAsRoot.get()) {
            throw new LabRefusal("lab up needs root to create network namespaces; run it as root (for example with sudo)");
        }
    }

    private void refuseOverlaps(Path file, ClusterSetPlan plan) {
        List<AddressConflict> conflicts = AddressSpaceCheck.conflicts(plan, MachineNetwork.read(runner));
        if (conflicts.isEmpty()) {
            return;
        }
        String listed = conflicts.stream().limit(5).map(c -> "  " + c.describe()).collect(Collectors.joining("\n"));
        throw new LabRefusal(file + ": the topology uses addresses of this machine's own network:\n" + listed
                + (conflicts.size() > 5 ? "\n  (and " + (conflicts.size() - 5) + " more)" : "")
                + "\nchange these addresses in the file: the lab only uses addresses the machine does not");
    }

    private void refuseBeyondCapacity(Path file, LabLayout layout) {
        int namespaces = layout.namespaces().size();
        capacity.get().refusal(namespaces).ifPresent(reason -> {
            throw new LabRefusal(file + ": a lab of " + namespaces + " namespaces (" + layout.hosts().size() + " hosts, "
                    + layout.switches().size() + " switches) does not fit on this machine:\n  " + reason
                    + "\nnothing was created; use a smaller topology (fewer pods: they are most of the namespaces), or a bigger machine");
        });
    }

    private void refuseExisting(Path file, LabLayout layout) {
        Optional<LabState> up = stateFile.read(layout.names().hash());
        if (up.isPresent()) {
            // Name the file that built it: 'lab down' of this file would refuse when another one did.
            String builtFrom = up.get().file();
            Optional<String> collision = stateFile.collision(up.get(), layout.names().topologyName(), file);
            if (collision.isPresent()) {
                throw new LabRefusal(collision.get());
            }
            if (up.get().state().equals(LabState.BUILDING)) {
                throw new LabRefusal(stateFile.halfBuilt(up.get()));
            }
            throw new LabRefusal("a lab of topology '" + layout.names().topologyName() + "' is already up, built from " + builtFrom
                    + " (state in " + stateFile.pathFor(layout.names().hash()) + "); run 'lab down " + builtFrom + "' first");
        }
        List<String> existing = layout.namespaces().stream().filter(NetworkNamespaces::exists).toList();
        if (!existing.isEmpty()) {
            throw new LabRefusal("network namespace " + existing.getFirst() + " already exists but no lab state records it;"
                    + " it is not this lab's to remove: delete it yourself ('ip netns del " + existing.getFirst() + "') if it is stale");
        }
    }

    /** Every cluster's DNS Service and its server's place, or the refusal of a file whose service CIDR has no address left for it. */
    private static List<ClusterDns> clusterDns(Path file, ClusterSet set, LabLayout layout) {
        try {
            return ClusterDns.of(set, layout);
        } catch (IllegalArgumentException e) {
            throw new LabRefusal(file + ": " + e.getMessage());
        }
    }

    private void build(ClusterSet set, ClusterSetPlan plan, LabLayout layout, List<ClusterDns> dns, LabState initial, Consumer<String> progress,
                       LabRollback rollback) {
        List<String> namespaces = layout.namespaces();
        phase(progress, rollback, "namespaces", () -> {
            runner.run(Command.of("ip", "-batch", "-").withStdin(LabBatches.addNamespaces(namespaces)));
            return namespaces.size() + " created";
        });
        phase(progress, rollback, "sysctls", () -> {
            boolean seeds = Files.exists(Path.of("/proc/sys", SysctlSettings.MULTIPATH_HASH_SEED.replace('.', '/')));
            List<NamespaceSettings> all = new ArrayList<>();
            for (HostNamespace host : layout.hosts()) {
                Map<String, String> settings = new LinkedHashMap<>(SysctlSettings.beforeInterfaces(host));
                if (seeds && host.isNode()) {
                    settings.putAll(SysctlSettings.multipathSeed(host));
                }
                all.add(new NamespaceSettings(host.namespace(), settings));
            }
            for (SwitchNamespace sw : layout.switches()) {
                all.add(new NamespaceSettings(sw.namespace(), SysctlSettings.forSwitch()));
            }
            Progress ticks = new Progress(progress, "sysctls", all.size());
            // One thread: the kernel's IPv6 sysctl handlers retry while another writer holds the RTNL lock
            // (rtnl_trylock, then restart the write), so writers in parallel spin against each other.
            int count = NamespaceWorkers.writingSysctlsInEach(all, NamespaceSettings::namespace, 1, each -> {
                SysctlWriter.write(each.settings());
                ticks.done();
                return each.settings().size();
            }).stream().mapToInt(Integer::intValue).sum();
            if (!seeds) {
                return count + " set; this kernel has no " + SysctlSettings.MULTIPATH_HASH_SEED
                        + ": all nodes hash flows alike, so some gateway pairs may never carry a flow";
            }
            return count + " set, a multipath hash seed per node";
        });
        phase(progress, rollback, "veths", () -> {
            runner.run(Command.of("ip", "-batch", "-").withStdin(LabBatches.veths(layout)));
            for (SwitchNamespace sw : layout.switches()) {
                runner.run(Command.of("ip", "-n", sw.namespace(), "-batch", "-").withStdin(LabBatches.switchBatch(sw)));
            }
            return layout.veths().size() + " veth pairs, " + layout.switches().size() + " bridges";
        });
        phase(progress, rollback, "wires", () -> installHashReset(layout));
        phase(progress, rollback, "addresses and routes", () -> {
            Progress ticks = new Progress(progress, "addresses and routes", layout.hosts().size());
            // From a thread inside the host's namespace: "ip -n" would unshare a mount namespace per host.
            // A pod's few steps go over netlink from that thread: an ip program would cost more to start than they take.
            AtomicInteger overNetlink = new AtomicInteger();
            int steps = NamespaceWorkers.inEach(layout.hosts(), HostNamespace::namespace, NamespaceWorkers.threads(), host -> {
                List<HostStep> hostSteps = LabBatches.hostSteps(host);
                try {
                    if (HostSetupOverNetlink.writes(hostSteps)) {
                        HostSetupOverNetlink.write(hostSteps);
                        overNetlink.incrementAndGet();
                    } else {
                        runner.run(Command.of("ip", "-batch", "-").withStdin(LabBatches.batch(hostSteps)));
                    }
                    Map<String, String> late = SysctlSettings.afterInterfaces(host);
                    if (!late.isEmpty()) {
                        SysctlWriter.write(late);
                    }
                } catch (RuntimeException e) {
                    throw new IllegalStateException("in namespace " + host.namespace() + " (" + host.host() + "): " + e.getMessage(), e);
                }
                ticks.done();
                return hostSteps.size();
            }).stream().mapToInt(Integer::intValue).sum();
            int hosts = layout.hosts().size();
            return steps + " steps in " + hosts + " hosts (" + overNetlink.get() + " over netlink, " + (hosts - overNetlink.get())
                    + " with ip -batch)";
        });
        AtomicReference<LabState> recorded = new AtomicReference<>(initial);
        // Before the agents: Submariner's routes on an OVN node go through ovn-k8s-mp0 and ovn-k8s-sub0, which OVN plugs.
        for (Cluster cluster : set.clusters()) {
            if (cluster.cni() == Cni.OVN_KUBERNETES) {
                phase(progress, rollback, "ovn " + cluster.name(), () -> ovn(cluster, plan, layout, recorded, progress));
            }
        }
        // The agents route into the WireGuard devices ("dev submariner") but do not build them.
        if (!WireGuardGateways.withDevices(layout.nodes()).isEmpty()) {
            phase(progress, rollback, "wireguard", () -> {
                int devices = new WireGuardGateways(runner).start(layout.nodes(), started ->
                        stateFile.write(recorded.updateAndGet(s -> s.withWireGuard(started))));
                return devices + " devices (wireguard-go in each gateway's namespace, keys generated for this lab)";
            });
        }
        phase(progress, rollback, "node environment rules", () -> {
            int hosts = 0;
            for (HostNamespace host : layout.hosts()) {
                Optional<String> rules = LabBatches.environmentRules(host);
                if (rules.isPresent()) {
                    runner.run(Command.of("iptables-restore", "-w", "--noflush").withStdin(rules.get()).inNamespace(host.namespace()));
                    hosts++;
                }
            }
            return hosts == 0 ? "none (no cluster's CNI masquerades)" : hosts + " hosts (the CNI's rules, before the agents')";
        });
        List<HostNamespace> nodes = layout.nodes();
        // Each node's two agents made once: the convergence check asks the same reconcilers that
        // programmed the node, whose kernel watch lets them read again only what changed since.
        List<LayerAgent> kubeProxies = nodes.stream().map(agents::kubeProxy).toList();
        List<LayerAgent> submariners = nodes.stream().map(node -> submarinerAgent(node, set, plan, initial)).toList();
        phase(progress, rollback, "kube-proxy", () -> {
            List<List<String>> ran = onEveryNode(nodes, node -> kubeProxies.get(nodes.indexOf(node)).reconcile());
            return programs(ran) + " programs on " + nodes.size() + " nodes";
        });
        phase(progress, rollback, "agents", () -> {
            List<List<String>> ran = onEveryNode(nodes, node -> submariners.get(nodes.indexOf(node)).reconcile());
            return programs(ran) + " programs on " + nodes.size() + " nodes";
        });
        phase(progress, rollback, "converged", () -> {
            List<String> pending = new ArrayList<>();
            List<List<String>> left = onEveryNode(nodes, node -> {
                int i = nodes.indexOf(node);
                List<String> lines = new ArrayList<>();
                kubeProxies.get(i).pendingChanges().forEach(c -> lines.add(node.host() + " (kube-proxy): " + c));
                submariners.get(i).pendingChanges().forEach(c -> lines.add(node.host() + ": " + c));
                return lines;
            });
            left.forEach(pending::addAll);
            if (!pending.isEmpty()) {
                throw new IllegalStateException("the agents did not converge; still different after reconciling:\n  "
                        + String.join("\n  ", pending.subList(0, Math.min(20, pending.size()))));
            }
            return "every node's agents report no difference";
        });
        phase(progress, rollback, "links", () -> links(set, layout, recorded));
        // After convergence: the kube-proxy stand-in's check above knows only the plan's services.
        phase(progress, rollback, "cluster dns", () -> clusterDns(layout, dns) + ovnClusterDns(set, plan, dns, recorded.get()));
        // Last: OVN has every row by now, and the agents made ovn-k8s-sub0.
        if (set.clusters().stream().anyMatch(c -> c.cni() == Cni.OVN_KUBERNETES)) {
            phase(progress, rollback, "ovn gateway macs", () -> ovnGatewayMacs(set, layout, recorded.get()));
        }
    }

    /**
     * On each OVN cluster with Submariner's {@code submariner_router}, the router learns its gateway's
     * MAC by ARP, as OVN does, before {@code up} returns ({@link GatewayMacLearning} says why).
     */
    private String ovnGatewayMacs(ClusterSet set, LabLayout layout, LabState state) {
        GatewayMacLearning learning = new GatewayMacLearning(runner);
        List<String> learnt = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            if (cluster.cni() != Cni.OVN_KUBERNETES) {
                continue;
            }
            GatewayMacLearning.chassis(layout.nodes(), cluster.name()).ifPresent(chassis -> learnt.add(
                    learning.learn(chassis, stateFile.directoryFor(state.hash()).resolve("ovn-" + cluster.name()))));
        }
        return learnt.isEmpty() ? "none (no cluster reaches its gateway through submariner_router)" : String.join("; ", learnt);
    }

    /**
     * Periscope's agent of {@code node}; on a node of an OVN-Kubernetes cluster it also keeps the
     * node's bridges in the Open vSwitch the OVN phase started there.
     */
    private LayerAgent submarinerAgent(HostNamespace node, ClusterSet set, ClusterSetPlan plan, LabState state) {
        boolean ovn = set.cluster(node.host().cluster()).map(c -> c.cni() == Cni.OVN_KUBERNETES).orElse(false);
        if (!ovn) {
            return agents.submariner(node);
        }
        String database = PlannedOvnCluster.nodeDatabase(stateFile.directoryFor(state.hash()), node.host().cluster(), node.host().name());
        return agents.submariner(node, new NodeOvs(database, NodeOvs.bridges(plan, node.plan())));
    }

    /**
     * An OVN-Kubernetes cluster's real datapath ({@link PlannedOvnCluster}): its run directory is in
     * the state file before its first daemon starts, so that {@code down}, or the rollback of this
     * {@code up}, stops the daemons that detached from this JVM.
     */
    private String ovn(Cluster cluster, ClusterSetPlan plan, LabLayout layout, AtomicReference<LabState> recorded, Consumer<String> progress) {
        OvnTopology topology = plan.ovn(cluster.name()).orElseThrow(() -> new IllegalStateException(
                "the planner made no OVN topology for cluster " + cluster.name()));
        OvnClusterSpec spec = PlannedOvnCluster.spec(cluster, topology, layout);
        Path directory = PlannedOvnCluster.directory(stateFile.directoryFor(recorded.get().hash()), cluster.name());
        stateFile.write(recorded.updateAndGet(s -> s.withOvnRunDirectory(directory.toString())));
        progress.accept("ovn " + cluster.name() + ": starting the northbound and southbound databases and ovn-northd on " + spec.controlPlaneNode().name()
                + ", and ovsdb-server, ovs-vswitchd (userspace datapath) and ovn-controller on each of " + spec.nodes().size()
                + " nodes (files in " + directory + ")...");
        OvnCluster started = PlannedOvnCluster.start(runner, spec, topology, layout, directory, progress);
        return started.daemons().size() + " daemons, " + started.pods().size() + " pods on OVN logical switch ports";
    }

    /**
     * On an OVN-Kubernetes cluster, the DNS Service as OVN-Kubernetes serves Services: load balancers
     * and a reroute to the server's node in the cluster's northbound database ({@link OvnClusterDns}),
     * applied by every chassis before {@code up} goes on.
     */
    private String ovnClusterDns(ClusterSet set, ClusterSetPlan plan, List<ClusterDns> dns, LabState state) {
        List<String> written = new ArrayList<>();
        for (ClusterDns cluster : dns) {
            if (plan.ovn(cluster.cluster()).isEmpty()) {
                continue;
            }
            Cluster model = set.cluster(cluster.cluster()).orElseThrow();
            Node server = model.node(cluster.server().host().name()).orElseThrow();
            OvnClusterDns service = new OvnClusterDns(cluster, server.cniIp(), model.podCidrs());
            String northbound = "--db=unix:" + stateFile.directoryFor(state.hash()).resolve("ovn-" + cluster.cluster()).resolve("central/nb.sock");
            List<String> argv = new ArrayList<>(List.of("ovn-nbctl", northbound, "--timeout=20"));
            argv.addAll(service.transaction());
            runner.run(new Command(argv, ""));
            runner.run(Command.of("ovn-nbctl", northbound, "--timeout=20", "--wait=hv", "sync"));
            written.add(cluster.cluster());
        }
        return written.isEmpty() ? "" : "; on OVN " + String.join(", ", written) + ": load balancers " + String.join(" and ", OvnClusterDns.loadBalancers())
                + " in " + Names.CLUSTER_LB_GROUP + ", reroute " + OvnClusterDns.REROUTE_PRIORITY + " to the server node's ovn-k8s-mp0";
    }

    /**
     * The links' rates, queues, loss and delay ({@link LinkPlan}): one {@code tc -batch} and one
     * {@code iptables-restore} per namespace, then read back; anything still different fails {@code up}.
     * Last, after the agents: their jumps go on top of the built-in chains, the link chains' stay at the
     * bottom, where a delayed packet skips nothing of theirs.
     */
    private String links(ClusterSet set, LabLayout layout, AtomicReference<LabState> recorded) {
        LinkPlan links = LinkPlan.of(set, layout);
        List<DelayedLink> delays = LinkPlan.delays(set, layout);
        String summary = links.describe(delays, set);
        if (!links.asksAnything()) {
            return summary;
        }
        LinkReconciler reconciler = LinkReconciler.forNewLab(runner);
        LinkReconciler.Result result = reconciler.reconcile(links);
        List<String> left = reconciler.differences(links);
        if (!left.isEmpty()) {
            throw new IllegalStateException("the links did not come out as planned; read back:\n  "
                    + String.join("\n  ", left.subList(0, Math.min(20, left.size()))));
        }
        stateFile.write(recorded.updateAndGet(s -> s.withLinks(summary)));
        return summary + " (" + result.programs() + " programs, read back alike)"
                + (delays.isEmpty() ? "" : "; until the supervisor's delay line listens, what crosses a delayed link is dropped");
    }

    /**
     * The DNS Service of every cluster, as kube-proxy and the kubelet set it up: on every node the
     * DNAT of the Service address to the server's node ({@link ClusterDnsRules}), and in every pod
     * namespace a {@code resolv.conf} naming the Service address ({@link PodResolverFiles}). The
     * servers themselves run in the supervisor, which {@code up} starts next.
     */
    private String clusterDns(LabLayout layout, List<ClusterDns> dns) {
        int nodes = 0;
        for (HostNamespace node : layout.nodes()) {
            Optional<ClusterDns> cluster = ClusterDns.of(dns, node.host().cluster());
            if (cluster.isPresent()) {
                runner.run(Command.of("iptables-restore", "-w", "--noflush").withStdin(ClusterDnsRules.restore(cluster.get()))
                        .inNamespace(node.namespace()));
                nodes++;
            }
        }
        int pods = 0;
        for (HostNamespace host : layout.hosts()) {
            Optional<ClusterDns> cluster = ClusterDns.of(dns, host.host().cluster());
            if (!host.isNode() && cluster.isPresent()) {
                resolverFiles.write(host.namespace(), cluster.get().serviceAddress());
                pods++;
            }
        }
        return dns.stream().map(d -> d.cluster() + " " + d.serviceAddress() + ":" + ClusterDns.PORT + " -> " + d.server().host() + " "
                + d.serverAddress() + ":" + ClusterDns.SERVER_PORT).collect(Collectors.joining(", ")) + "; DNAT on " + nodes + " nodes, resolv.conf in " + pods
                + " pod namespaces (" + resolverFiles.etcNetns() + ")";
    }

    /**
     * Frames entering a switch forget their flow hash (see {@link HashResetProgram}). A kernel or a
     * {@code tc} without eBPF leaves the wires as they are: the lab still works, but nodes then
     * choose among gateways in step, which the progress line says.
     */
    private String installHashReset(LabLayout layout) {
        Path program;
        try {
            program = HashResetProgram.writeTo(Files.createTempFile("periscope-hash-reset", ".o"));
        } catch (IOException e) {
            return "left as they are: cannot write the eBPF object (" + e.getMessage() + ")";
        }
        try {
            int ports = 0;
            for (SwitchNamespace sw : layout.switches()) {
                CommandResult result = runner.execute(Command.of("tc", "-n", sw.namespace(), "-batch", "-")
                        .withStdin(WireBatches.hashReset(sw, program)));
                if (!result.succeeded()) {
                    return "flow hashes cross the wires (tc could not attach the eBPF program: " + result.stderr().strip()
                            + "); nodes will choose among gateways in step";
                }
                ports += sw.ports().size();
            }
            return "flow hash reset on " + ports + " switch ports";
        } finally {
            try {
                Files.deleteIfExists(program);
            } catch (IOException e) {
                // a leftover temporary file of a few hundred bytes; the program is already in the kernel
            }
        }
    }

    private static int programs(List<List<String>> ran) {
        return ran.stream().mapToInt(List::size).sum();
    }

    /**
     * Node agents work in parallel, on a pool sized to the cores as the namespace workers are: each
     * mostly waits for iproute2 and iptables of its own namespace, whose work is the kernel's.
     */
    private static <T> List<T> onEveryNode(List<HostNamespace> nodes, Function<HostNamespace, T> work) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(NamespaceWorkers.threads(), nodes.size())),
                task -> Thread.ofPlatform().daemon().name("lab-agent").unstarted(task));
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (HostNamespace node : nodes) {
                futures.add(pool.submit(() -> work.apply(node)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while programming the nodes", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Hosts between two progress lines inside a phase: a lab of thousands otherwise goes quiet for minutes. */
    static final int HOSTS_PER_PROGRESS_LINE = 1000;

    /** One progress line every {@link #HOSTS_PER_PROGRESS_LINE} namespaces done, from whichever worker did it. */
    private static final class Progress {
        private final Consumer<String> lines;
        private final String phase;
        private final int total;
        private final AtomicInteger done = new AtomicInteger();

        Progress(Consumer<String> lines, String phase, int total) {
            this.lines = lines;
            this.phase = phase;
            this.total = total;
        }

        void done() {
            int now = done.incrementAndGet();
            if (now % HOSTS_PER_PROGRESS_LINE == 0 && now < total) {
                synchronized (this) {
                    lines.accept(phase + ": " + now + " of " + total + " namespaces so far...");
                }
            }
        }
    }

    /** The sysctls one namespace gets before its interfaces exist. */
    private record NamespaceSettings(String namespace, Map<String, String> settings) {
    }

    private static void phase(Consumer<String> progress, LabRollback rollback, String name, Supplier<String> work) {
        long start = System.nanoTime();
        String outcome = rollback.step(work);
        progress.accept(name + ": " + outcome + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
    }
}
