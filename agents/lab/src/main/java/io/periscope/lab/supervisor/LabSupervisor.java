package io.periscope.lab.supervisor;

import io.periscope.agent.health.HealthSettings;
import io.periscope.agent.health.HealthTargets;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.dns.ClusterDnsServers;
import io.periscope.lab.dns.ClusterDnsStatus;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The process {@code lab up} leaves behind: it keeps every node's Periscope agent running, each
 * health-checking the gateways it load-balances to ({@link NodeAgentLoop}), as the agents do on real
 * nodes. It plans from the topology {@code lab up} wrote into the lab's directory, follows the
 * {@code agents-stopped} file that {@code lab fail} writes, and reports in its status file. It also
 * runs every cluster's DNS server ({@link ClusterDnsServers}), whose answers follow the gateways'
 * health. It ends
 * on SIGTERM ({@code lab down}), and by itself once the lab's state file is gone.
 *
 * <p>kube-proxy's stand-in is not run again: it programmed its chains once during {@code up}, and
 * re-running it would put its jumps back above Periscope's (see {@link ReconcilingAgents}).
 */
public final class LabSupervisor implements AutoCloseable {

    /** How often a node's agent repairs its node when nothing signalled it; what a person changed by hand goes back within this. */
    static final Duration RESYNC = Duration.ofSeconds(2);
    /** How often the supervisor reads the stop requests and writes its status. */
    static final Duration TICK = Duration.ofMillis(50);

    private final LabStateFile stateFile;
    private final String hash;
    private final SupervisorFiles files;
    private final ReconcilingAgents agents = new ReconcilingAgents();
    private final Map<String, NodeAgentLoop> loops = new LinkedHashMap<>();
    private volatile boolean closed;
    private ClusterDnsServers dns;
    private Map<String, SupervisorStatus.NodeAgentStatus> lastWritten = Map.of();
    private Map<String, ClusterDnsStatus> lastWrittenDns = Map.of();
    private long lastWrite;

    LabSupervisor(LabStateFile stateFile, String hash) {
        this.stateFile = stateFile;
        this.hash = hash;
        this.files = new SupervisorFiles(stateFile.directoryFor(hash));
    }

    /** {@code LabSupervisor STATE_DIRECTORY HASH}: started by {@link SupervisorLauncher}, never by people. */
    public static void main(String[] args) throws TopologyException {
        if (args.length != 2) {
            System.err.println("usage: LabSupervisor STATE_DIRECTORY HASH (started by 'periscope lab up')");
            System.exit(2);
        }
        LabSupervisor supervisor = new LabSupervisor(new LabStateFile(Path.of(args[0])), args[1]);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(supervisor::close));
        supervisor.run();
        System.exit(0);
    }

    void run() throws TopologyException {
        ClusterSet set = TopologyLoader.loadWritten(files.topology());
        ClusterSetPlan plan = Planner.plan(LabCables.of(set).set());
        LabLayout layout = LabLayout.of(plan);
        if (!layout.names().hash().equals(hash)) {
            throw new IllegalStateException(files.topology() + " is not the topology of lab " + hash);
        }
        // The DNS servers first: a port 53 already taken ends the supervisor at once, and up says why.
        dns = ClusterDnsServers.start(plan, layout, LabSupervisor::log);
        Function<Ipv4Address, String> names = HealthTargets.gatewayNames(plan);
        PlansByDownGateways plans = new PlansByDownGateways(plan);
        for (HostNamespace node : layout.nodes()) {
            NodeAgentLoop loop = new NodeAgentLoop(node, down -> plans.submariner(node.host(), down), agents.submarinerReconciler(node), names,
                    HealthSettings.DEFAULTS, RESYNC, LabSupervisor::log);
            loops.put(loop.name(), loop);
        }
        log("supervising " + loops.size() + " nodes of " + set.name() + " (probes every " + HealthSettings.DEFAULTS.interval().toMillis()
                + " ms, down after " + HealthSettings.DEFAULTS.lossThreshold() + " losses, hold-down "
                + HealthSettings.DEFAULTS.holdDown().toMillis() + " ms)");
        Set<String> stopped = files.stoppedNodes();
        loops.values().forEach(loop -> loop.wanted(!stopped.contains(loop.name())));
        loops.values().forEach(NodeAgentLoop::start);
        while (!closed) {
            if (stateFile.read(hash).isEmpty() || !NetworkNamespaces.exists(layout.namespaces().getFirst())) {
                log("the lab's state file or namespaces are gone: stopping");
                break;
            }
            Set<String> wanted = files.stoppedNodes();
            loops.values().forEach(loop -> loop.wanted(!wanted.contains(loop.name())));
            dns.refresh();
            writeStatus();
            sleep(TICK);
        }
        close();
    }

    /** At once when an agent's state changed (what {@code lab fail} waits for), else once a second. */
    private void writeStatus() {
        Map<String, SupervisorStatus.NodeAgentStatus> nodes = new LinkedHashMap<>();
        loops.forEach((name, loop) -> nodes.put(name, loop.status()));
        Map<String, ClusterDnsStatus> servers = dns == null ? Map.of() : dns.status();
        long now = System.nanoTime();
        if (nodes.equals(lastWritten) && servers.equals(lastWrittenDns) && now - lastWrite < 1_000_000_000L) {
            return;
        }
        lastWritten = nodes;
        lastWrittenDns = servers;
        lastWrite = now;
        try {
            files.writeStatus(new SupervisorStatus(ProcessHandle.current().pid(), Instant.now().toString(), nodes, servers));
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
        agents.close();
        if (dns != null) {
            dns.close();
        }
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
