package io.periscope.lab.probe;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.capture.CaptureSession;
import io.periscope.lab.capture.CaptureTarget;
import io.periscope.lab.capture.Sighting;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.lease.LabLeases;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.shell.Invocation;
import io.periscope.lab.shell.Shell;
import io.periscope.lab.shell.ShellResult;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.lab.trace.PathComparison;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Segment;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code lab probe FILE [--flow NAME]}: real packets for each flow of the file, through a lab that is
 * up, compared hop by hop with the simulator.
 *
 * <p>Per flow, echo servers listen in every host namespace on the ports the flow can end on;
 * captures run on every interface of every host; the source host then opens connections one after
 * the other, each from its own source port. With more than one gateway, the kernel spreads
 * connections by a hash of their 5-tuple, so connections are sent in rounds until every simulated
 * path has been taken or the rounds run out. Each connection's packets are followed through the
 * captures, and the path they took is compared with the simulator's path through the same hops.
 */
public final class LabProbe {

    /** Connections per round of captures. */
    static final int ROUND = 8;
    /** Rounds at most per flow: enough for four equally likely paths to all show up, nearly always. */
    static final int MAX_ROUNDS = 6;
    /** ICMP is hashed by addresses only (it has no ports), so more echoes would take the same path. */
    static final int ICMP_PROBES = 2;
    static final int FIRST_SOURCE_PORT = 40000;
    static final int FIRST_ICMP_SIZE = 56;

    private final Shell shell;
    private final LabStateFile stateFile;
    private final Function<ClusterSetPlan, FlowSimulation> simulations;

    public LabProbe(Shell shell, LabStateFile stateFile, Function<ClusterSetPlan, FlowSimulation> simulations) {
        this.shell = shell;
        this.stateFile = stateFile;
        this.simulations = simulations;
    }

    /**
     * @throws TopologyException when the file cannot be used
     * @throws LabRefusal        when not root, when no lab of the file is up, or when no flow has the name given
     */
    public ProbeReport run(Path file, Optional<String> flowName, Consumer<String> progress) throws TopologyException {
        return run(file, TopologyLoader.load(file), flowName, progress);
    }

    /** The same, for a topology already loaded from {@code file}. */
    public ProbeReport run(Path file, ClusterSet topology, Optional<String> flowName, Consumer<String> progress) {
        if (!NetworkNamespaces.runningAsRoot()) {
            throw new LabRefusal("lab probe needs root to enter the lab's network namespaces; run it as root (for example with sudo)");
        }
        LabCables cables = LabCables.of(topology);
        cables.substitutions().forEach(note -> progress.accept("cables: " + note));
        ClusterSet set = cables.set();
        ClusterSetPlan plan = Planner.plan(set);
        LabLayout layout = LabLayout.of(plan);
        Optional<LabState> state = stateFile.read(layout.names().hash());
        if (state.isEmpty() || !state.get().state().equals(LabState.CONVERGED)) {
            throw new LabRefusal("no lab of topology '" + set.name() + "' is up; run 'lab up " + file + "' first");
        }
        // The lab must be the one this file describes: another file of the same name, or this one
        // edited since, would send packets through namespaces the plan does not describe.
        TopologySource source = TopologySource.of(file);
        source.otherFile(state.get()).ifPresent(other -> {
            throw new LabRefusal(other + ".\nProbe it with 'lab probe " + state.get().file() + "', or replace it: 'lab down "
                    + state.get().file() + "', then 'lab up " + file + "'");
        });
        source.changedSince(state.get()).ifPresent(changed -> {
            throw new LabRefusal(changed + "; the lab no longer matches it.\nRebuild it: 'lab down " + file + "', then 'lab up " + file + "'");
        });
        // Single-active clusters: the agents program the lease holders as active gateways (see LabLeases).
        Map<String, String> holders = LabLeases.holders(stateFile.directoryFor(state.get().hash()), set);
        ClusterSetPlan current = holders.isEmpty() ? plan : Planner.plan(LabLeases.withHolders(set, holders));
        List<Flow> flows = flowName.map(name -> List.of(set.flow(name).orElseThrow(() -> new LabRefusal("no flow named '" + name
                + "' in " + file + "; its flows are: " + set.flows().stream().map(Flow::name).collect(Collectors.joining(", "))))))
                .orElse(set.flows());
        FlowSimulation simulation = simulations.apply(current);
        Map<HostId, HostNamespace> hosts = new HashMap<>();
        Map<String, HostNamespace> named = new HashMap<>();
        layout.hosts().forEach(h -> {
            hosts.put(h.host(), h);
            named.put(h.host().toString(), h);
        });
        Set<Integer> vxlanPorts = new TreeSet<>();
        current.hosts().values().forEach(h -> h.submariner().vxlanDevices().forEach(d -> vxlanPorts.add(d.port())));
        LabInterfaces interfaces = new LabInterfaces(shell);
        long readStart = System.nanoTime();
        List<HostNamespace> nodes = layout.nodes();
        nodes.forEach(interfaces::of);
        progress.accept("probe: " + flows.size() + " flow" + (flows.size() == 1 ? "" : "s") + "; read the interfaces of " + nodes.size()
                + " nodes (" + (System.nanoTime() - readStart) / 1_000_000 + " ms); each flow captures on the nodes and on the pods"
                + " its simulated paths cross, " + CaptureSession.BUFFER_BYTES / 1024 + " KiB of capture buffer per interface");

        List<FlowProbeResult> results = new ArrayList<>();
        for (int index = 0; index < flows.size(); index++) {
            Flow flow = flows.get(index);
            long start = System.nanoTime();
            String counter = "flow " + (index + 1) + "/" + flows.size() + " " + flow.name();
            FlowProbeResult result = probe(flow, set.flows().indexOf(flow), simulation, current, hosts, named, nodes, interfaces, vxlanPorts,
                    line -> progress.accept(counter + ": " + line));
            results.add(result);
            progress.accept(counter + ": " + summary(result) + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
        }
        return new ProbeReport(set.name(), results);
    }

    static String summary(FlowProbeResult result) {
        if (result.problem().isPresent()) {
            return "not probed: " + result.problem().get();
        }
        if (result.unanswered().isPresent()) {
            return "unreachable, as simulated: " + result.unanswered().get() + "; a client gets no address, so nothing is sent";
        }
        long delivered = result.attempts().stream().filter(a -> a.outcome().disposition().equals("delivered")).count();
        return result.attempts().size() + " probes, " + delivered + " delivered, " + result.pathsSeen().size() + " of "
                + result.simulatedPaths() + " simulated paths taken, " + (result.matchesSimulation() ? "matches the simulation"
                : "differs: " + result.firstDifference().map(d -> d.describe()).orElse("no probe matched"));
    }

    private FlowProbeResult probe(Flow flow, int flowIndex, FlowSimulation simulation, ClusterSetPlan plan, Map<HostId, HostNamespace> hosts,
                                  Map<String, HostNamespace> named, List<HostNamespace> nodes, LabInterfaces interfaces, Set<Integer> vxlanPorts, Consumer<String> progress) {
        ProbeTarget target;
        try {
            target = simulation.resolve(flow);
        } catch (FlowSimulation.UnansweredName e) {
            return FlowProbeResult.unanswered(flow.name(), flow.from().toString(), flow.to().toString(), e.getMessage());
        } catch (IllegalArgumentException e) {
            return new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), "", 0, List.of(),
                    Optional.of(e.getMessage()));
        }
        Optional<HostNamespace> source = Optional.ofNullable(hosts.get(target.source()));
        if (source.isEmpty()) {
            return failed(flow, target, 0, "the lab has no namespace for " + target.source());
        }
        int firstPort = FIRST_SOURCE_PORT + 100 * flowIndex;
        List<TracePath> simulatedPathList = simulation.paths(target, firstPort);
        int simulatedPaths = simulatedPathList.size();
        Set<Integer> ports = serverPorts(simulation, target, firstPort);
        // Captures and servers where this flow can go, not in every namespace of the lab: every
        // node (a packet the simulator does not expect shows where it leaves a node) and the pods
        // the simulated paths cross. A lab of thousands of pods then costs per flow what a small
        // one does.
        Set<HostNamespace> watched = new LinkedHashSet<>(nodes);
        watched.add(source.get());
        for (TracePath path : simulatedPathList) {
            for (TraceHop hop : concat(path.forward(), path.reply())) {
                Optional.ofNullable(named.get(hop.node())).ifPresent(watched::add);
            }
        }
        Set<HostId> watchedIds = new HashSet<>();
        watched.forEach(h -> watchedIds.add(h.host()));
        List<CaptureTarget> targets = new ArrayList<>();
        // A node holds one veth end per pod on it: only those toward watched pods are captured.
        watched.forEach(h -> interfaces.of(h).stream()
                .filter(t -> !h.isNode() || !leadsToAnUnwatchedPod(plan, t, watchedIds))
                .forEach(targets::add));
        LabWiring wiring = new LabWiring(plan, interfaces.macs());
        progress.accept("capturing on " + targets.size() + " interfaces of " + watched.size() + " hosts, " + simulatedPaths
                + " simulated path" + (simulatedPaths == 1 ? "" : "s"));
        forgetConnections(nodes);
        ProbeTraffic traffic = new ProbeTraffic(shell);
        List<ObservedAttempt> attempts = new ArrayList<>();
        Set<Integer> seen = new TreeSet<>();
        try (EchoServers servers = EchoServers.start(watched, target.protocol() == Protocol.TCP ? ports : Set.of(),
                target.protocol() == Protocol.UDP ? ports : Set.of());
             NamespaceThread sender = NamespaceThread.enter(source.get().namespace())) {
            int rounds = target.protocol() == Protocol.ICMP ? 1 : MAX_ROUNDS;
            int perRound = target.protocol() == Protocol.ICMP ? ICMP_PROBES : ROUND;
            for (int round = 0; round < rounds && seen.size() < simulatedPaths; round++) {
                List<AttemptOutcome> outcomes = new ArrayList<>();
                List<Sighting> sightings;
                try (CaptureSession session = CaptureSession.start(targets, vxlanPorts)) {
                    for (int k = 0; k < perRound; k++) {
                        int n = round * perRound + k;
                        // A port still held by a connection of an earlier run sends nothing: that probe is skipped.
                        switch (target.protocol()) {
                            case TCP -> traffic.tcp(sender, target, firstPort + n, "periscope probe " + flow.name() + " " + n + "\n")
                                    .ifPresent(outcomes::add);
                            case UDP -> traffic.udp(sender, target, firstPort + n, flow.name() + "/" + n + "/" + System.nanoTime())
                                    .ifPresent(outcomes::add);
                            case ICMP -> outcomes.add(traffic.icmp(source.get().namespace(), target, FIRST_ICMP_SIZE + n));
                        }
                    }
                    sightings = session.stop();
                }
                for (AttemptOutcome outcome : outcomes) {
                    ObservedAttempt attempt = analyse(outcome, target, wiring, sightings, servers, simulation, routes(hosts));
                    attempts.add(attempt);
                    if (attempt.match().matches()) {
                        seen.add(attempt.match().simulatedPath());
                    }
                }
            }
        } catch (RuntimeException e) {
            return failed(flow, target, simulatedPaths, e.getMessage());
        }
        return new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), target.resolved(), simulatedPaths,
                attempts, Optional.empty());
    }

    /**
     * Empties every node's connection table: NAT state left by an earlier probe would otherwise
     * carry a packet where the simulator, which starts every trace without connections, would not.
     */
    private void forgetConnections(List<HostNamespace> nodes) {
        for (HostNamespace node : nodes) {
            shell.execute(Invocation.of("conntrack", "-F").inNamespace(node.namespace()));
        }
    }

    /** The kernel's own answer: {@code ip route get DST from SRC iif IN} in the host's namespace. */
    private RouteQuery routes(Map<HostId, HostNamespace> hosts) {
        return (host, packet, in) -> {
            HostNamespace namespace = hosts.get(host);
            if (namespace == null) {
                throw new IllegalArgumentException("the lab has no host " + host);
            }
            List<String> argv = new ArrayList<>(List.of("ip", "-n", namespace.namespace(), "route", "get",
                    packet.dst().toString(), "from", packet.src().toString()));
            in.ifPresent(i -> argv.addAll(List.of("iif", i)));
            ShellResult result = shell.execute(Invocation.of(argv));
            if (result.succeeded()) {
                return Optional.empty();
            }
            return result.stderr().contains("Network is unreachable") ? Optional.of("no-route")
                    : result.stderr().contains("No route to host") ? Optional.of("unreachable") : Optional.empty();
        };
    }

    private static FlowProbeResult failed(Flow flow, ProbeTarget target, int simulatedPaths, String problem) {
        return new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), target.resolved(), simulatedPaths,
                List.of(), Optional.of(problem));
    }

    /** Whether {@code target} is a node's end of a veth whose other end is a pod not watched for this flow. */
    private static boolean leadsToAnUnwatchedPod(ClusterSetPlan plan, CaptureTarget target, Set<HostId> watched) {
        return plan.host(target.host())
                .flatMap(h -> h.interfaces().stream().filter(i -> i.name().equals(target.iface())).findFirst())
                .filter(i -> !i.segment().isEmpty())
                .flatMap(i -> plan.segment(i.segment()))
                .filter(segment -> segment.kind() == Segment.SegmentKind.VETH)
                .map(segment -> segment.attachments().stream().map(Segment.Attachment::host)
                        .anyMatch(other -> other.isPod() && !watched.contains(other)))
                .orElse(false);
    }

    private static List<TraceHop> concat(List<TraceHop> forward, List<TraceHop> reply) {
        List<TraceHop> all = new ArrayList<>(forward);
        all.addAll(reply);
        return all;
    }

    /** The flow's port and every port the simulator delivers it to (a service's target port). */
    private static Set<Integer> serverPorts(FlowSimulation simulation, ProbeTarget target, int sourcePort) {
        Set<Integer> ports = new TreeSet<>();
        if (!target.protocol().hasPorts()) {
            return ports;
        }
        ports.add(target.port());
        for (TracePath path : simulation.paths(target, sourcePort)) {
            if (!path.forward().isEmpty()) {
                ports.add(path.forward().getLast().arrive().dport());
            }
        }
        return ports;
    }

    private static ObservedAttempt analyse(AttemptOutcome outcome, ProbeTarget target, LabWiring wiring, List<Sighting> sightings,
                                           EchoServers servers, FlowSimulation simulation, RouteQuery routes) {
        TracePath observed = new AttemptAnalysis(target, wiring, sightings, routes).observe(outcome,
                port -> servers.awaitDelivery(d -> d.received().proto() == target.protocol() && d.received().sport() == port,
                        outcome.disposition().equals("delivered") ? 1_000 : 0));
        List<TracePath> simulated = simulation.paths(target, outcome.sourcePort());
        return new ObservedAttempt(outcome, observed, simulated, PathComparison.compare(observed, simulated));
    }
}
