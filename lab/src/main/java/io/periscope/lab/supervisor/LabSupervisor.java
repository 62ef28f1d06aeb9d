package io.periscope.lab.supervisor;

import io.periscope.dataplane.election.LeaderElection;
import io.periscope.dataplane.election.LeaseCandidate;
import io.periscope.dataplane.election.LeaseTimings;
import io.periscope.dataplane.health.HealthSettings;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.dataplane.ovn.NbctlNorthbound;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.dataplane.ovn.NorthboundScope;
import io.periscope.dataplane.ovs.OvsBridgeProgrammer;
import io.periscope.lab.ovn.PlannedOvnCluster;
import io.periscope.model.topology.Cni;
import io.periscope.lab.dns.ClusterDnsServers;
import io.periscope.lab.dns.ClusterDnsStatus;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.lease.LabLeaseStore;
import io.periscope.lab.lease.LabLeases;
import io.periscope.lab.link.DelayLineSpec;
import io.periscope.lab.link.DelayLineStatus;
import io.periscope.lab.link.DelayLines;
import io.periscope.lab.link.DelayedLink;
import io.periscope.lab.link.LinkPlan;
import io.periscope.lab.link.LinkTimings;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The process {@code lab up} leaves behind: it keeps every node's Periscope agent running, each
 * health-checking the gateways it load-balances to ({@link NodeAgentLoop}), as the agents do on real
 * nodes. It plans from the topology {@code lab up} wrote into the lab's directory (and from the
 * edited one {@code lab apply} writes there in its place, see {@link #followTopology}), follows the
 * {@code agents-stopped} file that {@code lab fail} writes, and reports in its status file. It also
 * runs every cluster's DNS server ({@link ClusterDnsServers}), whose answers follow the gateways'
 * health and, in single-active clusters, the lease holders, and keeps the links' rates, queues, loss
 * and delay as the topology asks ({@link LinkLoop}). It ends
 * on SIGTERM ({@code lab down}), and by itself once the lab's state file is gone.
 *
 * <p>In a cluster with a single active gateway and several gateway nodes, each gateway node's agent
 * stands for the cluster's lease, a file in the lab's directory ({@link LabLeases}), with the same
 * election logic as the Kubernetes agents ({@link LeaderElection}, {@link LeaseTimings#LAB}). The
 * supervisor reads the leases every tick, as an informer watches a Lease; when one changes hands it
 * plans again with the new holder as the active gateway and every agent programs its node from that
 * plan: the new gateway becomes active, the cluster's other nodes route to it, remote gateways send
 * to it. A failed node ({@code lab fail}, any mode) cannot reach the leases, as it could not reach
 * an API server. When {@code up} has just built the lab, the file's first gateway takes each lease
 * before any other candidate stands, so the election starts from what {@code up} programmed.
 *
 * <p>On an OVN-Kubernetes cluster it also runs Submariner's network plugin syncer
 * ({@link NorthboundSyncLoop}): Submariner's rows of the cluster's northbound database follow the
 * same plan, so a lease that changes hands moves {@code submariner_router} to the new holder's chassis.
 *
 * <p>It also hosts the lab's delay lines ({@link DelayLines}): the links' delay and jitter, which
 * this kernel has no netem for. Which lines the topology wants comes from {@link #delayLineSpecs},
 * asked every tick with the topology planned from now, and the running lines are brought level
 * with its answer as the agents bring their nodes level with the plan.
 *
 * <p>kube-proxy's stand-in is not run again: it programmed its chains once during {@code up}, and
 * re-running it would put its jumps back above Periscope's (see {@link ReconcilingAgents}).
 */
public final class LabSupervisor implements AutoCloseable {

    /** How often a node's agent repairs its node when nothing signalled it; what a person changed by hand goes back within this. */
    static final Duration RESYNC = Duration.ofSeconds(2);
    /** How often the links are read back when nothing changed: a pass runs a few programs per shaped namespace. */
    static final Duration LINK_RESYNC = Duration.ofSeconds(10);
    /** How often the supervisor reads the stop requests and writes its status. */
    static final Duration TICK = Duration.ofMillis(50);

    private final LabStateFile stateFile;
    private final String hash;
    private final SupervisorFiles files;
    private final ReconcilingAgents agents = new ReconcilingAgents();
    /**
     * The seam where the topology's links become delay lines: the specs of every delay line the
     * given topology wants (one per namespace and netfilter queue that {@code lab up}'s iptables rules
     * send a link's packets to). Called every {@link #TICK} with the topology planned from now, so
     * that {@code lab apply} changing a delay retunes its line: it must be cheap and must not fail.
     */
    private final Function<ClusterSet, List<DelayLineSpec>> delayLineSpecs;
    private final DelayLines delayLines = new DelayLines(LabSupervisor::log);
    /** A refusal of the specs (two lines on one queue), so that it is logged once. */
    private String refusedDelayLines = "";
    private final Map<String, NodeAgentLoop> loops = new LinkedHashMap<>();
    /** Each OVN-Kubernetes cluster's network plugin syncer, by cluster. */
    private final Map<String, NorthboundSyncLoop> syncers = new LinkedHashMap<>();
    private volatile LinkLoop links;
    private final AtomicReference<SupervisedPlan> current = new AtomicReference<>();
    /** The nodes {@code lab fail} failed ({@code cluster/node}): they cannot reach the leases. */
    private volatile Set<String> failed = Set.of();
    /** The topology planned from now ({@code lab apply} replaces it). */
    private volatile ClusterSet topology;
    /** A handed-over revision that could not be planned, so that it is logged once. */
    private String refusedRevision = "";
    private volatile boolean closed;
    /** The first namespace of the lab as planned now, whose absence means lab down ran ({@code lab apply} deletes those of removed nodes). */
    private volatile String firstNamespace;
    private ClusterDnsServers dns;
    private Map<String, SupervisorStatus.NodeAgentStatus> lastWritten = Map.of();
    private Map<String, SupervisorStatus.NorthboundStatus> lastWrittenNorthbound = Map.of();
    private Map<String, ClusterDnsStatus> lastWrittenDns = Map.of();
    private Map<String, List<Object>> lastWrittenDelayLines = Map.of();
    private String lastWrittenRevision = "";
    private String lastWrittenLinks = "";
    private long lastWrite;

    /** No delay lines until the topology's links are turned into them ({@link #NO_DELAY_LINES}). */
    LabSupervisor(LabStateFile stateFile, String hash) {
        this(stateFile, hash, NO_DELAY_LINES);
    }

    /** @param delayLineSpecs the delay lines a topology wants (see {@link #delayLineSpecs}) */
    LabSupervisor(LabStateFile stateFile, String hash, Function<ClusterSet, List<DelayLineSpec>> delayLineSpecs) {
        this.stateFile = stateFile;
        this.hash = hash;
        this.files = new SupervisorFiles(stateFile.directoryFor(hash));
        this.delayLineSpecs = delayLineSpecs;
    }

    /** A topology wants no delay lines: what the supervisor runs until links become delay lines. */
    public static final Function<ClusterSet, List<DelayLineSpec>> NO_DELAY_LINES = set -> List.of();

    /**
     * The delay lines the topology's delayed links need ({@link LinkPlan#delays}), planned again only
     * when the topology changes: the supervisor asks on every tick.
     */
    static Function<ClusterSet, List<DelayLineSpec>> linkDelayLines() {
        java.util.concurrent.atomic.AtomicReference<java.util.Map.Entry<ClusterSet, List<DelayLineSpec>>> last =
                new java.util.concurrent.atomic.AtomicReference<>();
        return set -> {
            java.util.Map.Entry<ClusterSet, List<DelayLineSpec>> known = last.get();
            if (known != null && known.getKey() == set) {
                return known.getValue();
            }
            List<DelayLineSpec> specs = LinkPlan.delays(set).stream().map(DelayedLink::spec).toList();
            last.set(java.util.Map.entry(set, specs));
            return specs;
        };
    }

    /** {@code LabSupervisor STATE_DIRECTORY HASH}: started by {@link SupervisorLauncher}, never by people. */
    public static void main(String[] args) throws TopologyException {
        if (args.length != 2) {
            System.err.println("usage: LabSupervisor STATE_DIRECTORY HASH (started by 'periscope lab up')");
            System.exit(2);
        }
        LabSupervisor supervisor = new LabSupervisor(new LabStateFile(Path.of(args[0])), args[1], linkDelayLines());
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(supervisor::close));
        supervisor.run();
        System.exit(0);
    }

    void run() throws TopologyException {
        String revision = files.revision();
        ClusterSet set = TopologyLoader.loadWritten(files.topology());
        topology = set;
        ClusterSetPlan plan = Planner.plan(LabCables.of(set).set());
        LabLayout layout = LabLayout.of(plan);
        firstNamespace = layout.namespaces().getFirst();
        if (!layout.names().hash().equals(hash)) {
            throw new IllegalStateException(files.topology() + " is not the topology of lab " + hash);
        }
        // The DNS servers first: a port 53 already taken ends the supervisor at once, and up says why.
        // Probes wait for answers the links delay and may lose (LinkTimings); as fast as ever on plain links.
        LinkTimings timings = LinkTimings.of(set);
        HealthSettings health = timings.health(HealthSettings.DEFAULTS);
        HealthSettings dnsHealth = timings.health(ClusterDnsServers.SETTINGS);
        if (!health.equals(HealthSettings.DEFAULTS)) {
            log("links: round trips wait up to " + timings.worstRoundTrip().toMillis() + " ms and lose up to "
                    + String.format(java.util.Locale.ROOT, "%.1f%%", 100 * timings.worstLoss()) + " on the links, so health probes go every "
                    + health.interval().toMillis() + " ms and a gateway is down after " + health.lossThreshold() + " losses in a row");
        }
        dns = ClusterDnsServers.start(plan, layout, LabSupervisor::log, dnsHealth);
        // Before the agents: with no line serving a link's queue, the link drops every packet.
        followDelayLines();
        List<Cluster> electing = electing(set, plan);
        failed = failedNodes();
        takeFreeLeasesInFileOrder(electing);
        current.set(SupervisedPlan.of(revision, set, LabLeases.holders(files.directory(), set)));
        dns.follow(current.get().plan());
        for (HostNamespace node : layout.nodes()) {
            String reference = node.host().toString();
            Optional<Supplier<LeaseCandidate>> candidacy = electing.stream().filter(c -> c.name().equals(node.host().cluster())).findFirst()
                    .filter(c -> c.requireNode(node.host().name()).gateway())
                    .map(c -> () -> new LeaseCandidate(c.name() + " gateway lease", new LeaderElection(node.host().name(), LeaseTimings.LAB),
                            store(c, reference), Clock.systemUTC(), LeaseCandidate.Leadership.signalling(() -> { }), line -> log(c.name() + ": " + line)));
            Optional<OvsBridgeProgrammer> bridges = set.cluster(node.host().cluster()).filter(c -> c.cni() == Cni.OVN_KUBERNETES)
                    .map(c -> agents.bridgeProgrammer(node, PlannedOvnCluster.nodeDatabase(stateFile.directoryFor(hash), c.name(),
                            node.host().name())));
            NodeAgentLoop loop = new NodeAgentLoop(node, agents.submarinerReconciler(node), bridges, current::get, candidacy, health,
                    RESYNC, LabSupervisor::log);
            loops.put(loop.name(), loop);
        }
        log("supervising " + loops.size() + " nodes of " + set.name() + " (probes every " + health.interval().toMillis()
                + " ms, down after " + health.lossThreshold() + " losses, hold-down "
                + health.holdDown().toMillis() + " ms)"
                + (electing.isEmpty() ? "" : "; gateway leases (" + LeaseTimings.LAB.leaseDuration().toMillis() + " ms, renew deadline "
                + LeaseTimings.LAB.renewDeadline().toMillis() + " ms, retry " + LeaseTimings.LAB.retryPeriod().toMillis() + " ms) for "
                + current.get().holders().entrySet().stream().map(e -> e.getKey() + " (held by " + e.getValue() + ")")
                .collect(Collectors.joining(", "))));
        Set<String> stopped = files.stoppedNodes();
        loops.values().forEach(loop -> loop.wanted(!stopped.contains(loop.name())));
        loops.values().forEach(NodeAgentLoop::start);
        for (Cluster cluster : set.clusters()) {
            if (cluster.cni() == Cni.OVN_KUBERNETES) {
                NbctlNorthbound northbound = new NbctlNorthbound(ProcessCommandRunner.here(),
                        PlannedOvnCluster.northbound(stateFile.directoryFor(hash), cluster.name()));
                syncers.put(cluster.name(), new NorthboundSyncLoop(cluster.name(), new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER),
                        current::get, RESYNC, LabSupervisor::log));
            }
        }
        syncers.values().forEach(NorthboundSyncLoop::start);
        links = new LinkLoop(ProcessCommandRunner.here(), current::get, LINK_RESYNC, LabSupervisor::log);
        links.start();
        while (!closed) {
            if (stateFile.read(hash).isEmpty() || !NetworkNamespaces.exists(firstNamespace)) {
                log("the lab's state file or namespaces are gone: stopping");
                break;
            }
            failed = failedNodes();
            Set<String> wanted = files.stoppedNodes();
            loops.values().forEach(loop -> loop.wanted(!wanted.contains(loop.name())));
            followTopology(layout);
            followDelayLines();
            if (!electing.isEmpty()) {
                followLeases(topology);
            }
            dns.refresh();
            writeStatus();
            sleep(TICK);
        }
        close();
    }

    /**
     * Single-active clusters with several gateway nodes, except those whose cables are WireGuard:
     * {@code up} starts {@code wireguard-go} for the active gateway only, so a standby would have no
     * device to take over with.
     */
    private static List<Cluster> electing(ClusterSet set, ClusterSetPlan plan) {
        List<Cluster> electing = new ArrayList<>();
        for (Cluster cluster : LabLeases.electing(set)) {
            boolean wireGuard = plan.hosts().values().stream().anyMatch(h -> h.id().cluster().equals(cluster.name())
                    && !h.submariner().wireGuardDevices().isEmpty());
            if (wireGuard) {
                log(cluster.name() + ": its gateway stays " + cluster.activeGateways().getFirst().name()
                        + ": the lab elects no gateway over WireGuard cables (wireguard-go runs on the active gateway only)");
            } else {
                electing.add(cluster);
            }
        }
        return electing;
    }

    /** Where a node's candidacy keeps its cluster's lease: reachable while the node is not failed. */
    private LabLeaseStore store(Cluster cluster, String reference) {
        return new LabLeaseStore(LabLeases.file(files.directory(), cluster.name()), () -> !failed.contains(reference), reference);
    }

    /** Before any candidate stands: a lease nobody holds goes to the file's first gateway, the one {@code up} programmed as active. */
    private void takeFreeLeasesInFileOrder(List<Cluster> electing) {
        for (Cluster cluster : electing) {
            String first = cluster.activeGateways().getFirst().name();
            String reference = cluster.name() + "/" + first;
            boolean free = LabLeaseStore.reader(LabLeases.file(files.directory(), cluster.name())).read()
                    .map(v -> !v.record().held()).orElse(true);
            if (free && !failed.contains(reference)) {
                new LeaderElection(first, LeaseTimings.LAB).attempt(Instant.now(), store(cluster, reference));
            }
        }
    }

    /** Plans again when a lease changed hands, and has every agent look at once. */
    private void followLeases(ClusterSet set) {
        Map<String, String> holders;
        try {
            holders = LabLeases.holders(files.directory(), set);
        } catch (RuntimeException e) {
            log("cannot read the gateway leases: " + e.getMessage());
            return;
        }
        SupervisedPlan before = current.get();
        // A released lease names nobody: the last holder stays active until someone takes it.
        Map<String, String> next = new java.util.TreeMap<>(before.holders());
        next.putAll(holders);
        if (next.equals(before.holders())) {
            return;
        }
        long started = System.nanoTime();
        SupervisedPlan planned = SupervisedPlan.of(before.revision(), set, next);
        current.set(planned);
        loops.values().forEach(NodeAgentLoop::poke);
        syncers.values().forEach(NorthboundSyncLoop::poke);
        dns.follow(planned.plan());
        log("gateway lease changed hands: " + next.entrySet().stream().filter(e -> !e.getValue().equals(before.holders().get(e.getKey())))
                .map(e -> e.getKey() + " -> " + e.getValue()).collect(Collectors.joining(", ")) + "; planned again in "
                + (System.nanoTime() - started) / 1_000_000 + " ms, every agent programs its node");
    }

    /**
     * Plans from the topology {@code lab apply} handed over, once its revision differs from the one
     * planned from: every agent looks at once and programs its node from the new plan, and every DNS
     * server's zone is replaced. {@code apply} checked that the lab can take it (the same clusters,
     * hosts, addresses and devices); a file that does not read or would be another lab is logged and
     * left alone, and the agents keep the plan they have.
     */
    private void followTopology(LabLayout layout) {
        String revision;
        try {
            revision = files.revision();
        } catch (RuntimeException e) {
            return; // lab down removed the directory; the loop notices the state file is gone
        }
        SupervisedPlan before = current.get();
        if (revision.equals(before.revision()) || revision.equals(refusedRevision)) {
            return;
        }
        long started = System.nanoTime();
        try {
            ClusterSet next = TopologyLoader.loadWritten(files.topology());
            SupervisedPlan planned = SupervisedPlan.of(revision, next, before.holders());
            LabLayout nextLayout = LabLayout.of(planned.plan());
            if (!nextLayout.names().hash().equals(layout.names().hash())) {
                throw new IllegalStateException("it is the topology of another lab");
            }
            firstNamespace = nextLayout.namespaces().getFirst();
            if (!LinkTimings.of(next).health(HealthSettings.DEFAULTS).equals(LinkTimings.of(topology).health(HealthSettings.DEFAULTS))) {
                log("links: the applied topology's delays or losses would want other health probe timings; the agents keep those they"
                        + " started with (rebuild the lab to change them)");
            }
            topology = next;
            current.set(planned);
            stopAgentsOfRemovedNodes(planned);
            loops.values().forEach(NodeAgentLoop::poke);
            syncers.values().forEach(NorthboundSyncLoop::poke);
            links.poke();
            dns.adopt(planned.plan());
            log("topology " + revision.substring(0, 12) + "... applied: planned again in " + (System.nanoTime() - started) / 1_000_000
                    + " ms, every agent programs its node and every DNS server answers from it");
        } catch (TopologyException | RuntimeException e) {
            refusedRevision = revision;
            log("topology " + revision.substring(0, 12) + "... not applied, the agents keep the plan they have: " + e.getMessage());
        }
    }

    /**
     * A node the applied topology no longer has left the cluster for good ({@code lab apply} deletes
     * its namespace once the agents of the nodes that remain converged): its agent stops, as its pod
     * goes with the node, and it is no longer reported.
     */
    private void stopAgentsOfRemovedNodes(SupervisedPlan planned) {
        List<String> gone = loops.keySet().stream().filter(name -> planned.plan().hosts().keySet().stream()
                .noneMatch(id -> id.namespace().isEmpty() && id.toString().equals(name))).toList();
        for (String name : gone) {
            NodeAgentLoop loop = loops.remove(name);
            loop.close();
            // Its thread and sockets in the namespace would keep the namespace, and its veths, alive.
            agents.release(loop.namespace());
            log(name + ": left the cluster set; its agent stopped");
        }
    }

    /** Brings the running delay lines level with what the topology planned from now wants. */
    private void followDelayLines() {
        try {
            delayLines.reconcile(delayLineSpecs.apply(topology));
            refusedDelayLines = "";
        } catch (RuntimeException e) {
            String reason = String.valueOf(e.getMessage());
            if (!reason.equals(refusedDelayLines)) {
                log("delay lines not changed, the running ones keep their delays: " + reason);
                refusedDelayLines = reason;
            }
        }
    }

    private Set<String> failedNodes() {
        return stateFile.read(hash).map(s -> s.failures().stream().map(f -> f.node()).collect(Collectors.toUnmodifiableSet())).orElse(Set.of());
    }

    /** At once when an agent's state changed (what {@code lab fail} waits for), else once a second. */
    private void writeStatus() {
        Map<String, SupervisorStatus.NodeAgentStatus> nodes = new LinkedHashMap<>();
        loops.forEach((name, loop) -> nodes.put(name, loop.status()));
        Map<String, SupervisorStatus.NorthboundStatus> northbound = new LinkedHashMap<>();
        syncers.forEach((name, syncer) -> northbound.put(name, syncer.status()));
        Map<String, ClusterDnsStatus> servers = dns == null ? Map.of() : dns.status();
        Map<String, DelayLineStatus> lines = delayLines.status();
        // A line's counters change with every packet: at once only when a line starts, stops or is retuned.
        Map<String, List<Object>> lineShape = new LinkedHashMap<>();
        lines.forEach((key, line) -> lineShape.put(key, List.of(line.running(), line.error(), line.delayMillis(), line.jitterMillis())));
        long now = System.nanoTime();
        String revision = current.get() == null ? "" : current.get().revision();
        SupervisorStatus.LinkStatus linkStatus = links == null ? SupervisorStatus.LinkStatus.NONE : links.status();
        if (nodes.equals(lastWritten) && northbound.equals(lastWrittenNorthbound) && servers.equals(lastWrittenDns) && revision.equals(lastWrittenRevision)
                && lineShape.equals(lastWrittenDelayLines) && linkStatus.converged().equals(lastWrittenLinks)
                && now - lastWrite < 1_000_000_000L) {
            return;
        }
        lastWrittenRevision = revision;
        lastWrittenLinks = linkStatus.converged();
        lastWritten = nodes;
        lastWrittenNorthbound = northbound;
        lastWrittenDns = servers;
        lastWrittenDelayLines = lineShape;
        lastWrite = now;
        try {
            files.writeStatus(new SupervisorStatus(ProcessHandle.current().pid(), Instant.now().toString(), nodes, servers, revision, linkStatus,
                    lines, northbound));
        } catch (RuntimeException e) {
            // The directory is removed by lab down just before it signals us: nothing to report to then.
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<NodeAgentLoop> all = new ArrayList<>(loops.values());
        all.forEach(NodeAgentLoop::close);
        syncers.values().forEach(NorthboundSyncLoop::close);
        if (links != null) {
            links.close();
        }
        agents.close();
        if (dns != null) {
            dns.close();
        }
        delayLines.close();
        log("stopped");
    }

    private static void log(String line) {
        System.err.println(Instant.now() + " " + line);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
