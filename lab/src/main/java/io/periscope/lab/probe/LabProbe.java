package io.periscope.lab.probe;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.capture.CaptureSession;
import io.periscope.lab.capture.CaptureTarget;
import io.periscope.lab.capture.Sighting;
import io.periscope.lab.dns.ClusterDns;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.link.LinkTimings;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.lease.LabLeases;
import io.periscope.lab.machine.MachineCapacity;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.lab.state.WireGuardProcess;
import io.periscope.lab.wireguard.WireGuardCounterReader;
import io.periscope.lab.wireguard.WireGuardCounters;
import io.periscope.lab.trace.PathComparison;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
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
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@code lab probe FILE [--flow NAME]}: real packets for each flow of the file, through a lab that is
 * up, compared hop by hop with the simulator.
 *
 * <p>Every flow is sized first (its captures and echo sockets) and the largest held against the
 * machine ({@link ProbeMemory}), so a probe too big is refused before anything is captured. Per
 * flow, echo servers listen on the ports the flow can end on, and captures run on the interfaces,
 * of every node and of the pods the flow's simulated paths cross; the source host then opens connections one after
 * the other, each from its own source port. With more than one gateway, the kernel spreads
 * connections by a hash of their 5-tuple, so connections are sent in rounds until every simulated
 * path has been taken or the rounds run out. Each connection's packets are followed through the
 * captures, and the path they took is compared with the simulator's path through the same hops.
 */
public final class LabProbe {

    /** Connections per round of captures. */
    static final int ROUND = 8;
    /**
     * Rounds at most per flow; a flow stops as soon as every path showed up. Six were enough for four
     * equally likely paths, but mag-3-gateways' UDP flow has nine (three local gateways, each reply
     * through any of the three), which a pod's socket hash and the gateways' port hash reach
     * unevenly: 48 probes missed one in about a third of the runs, 96 make that rare.
     */
    static final int MAX_ROUNDS = 12;
    /** ICMP is hashed by addresses only (it has no ports), so more echoes would take the same path. */
    static final int ICMP_PROBES = 2;
    static final int FIRST_SOURCE_PORT = 40000;
    static final int FIRST_ICMP_SIZE = 56;
    /** {@code lab up} runs an OVN cluster's daemons in {@code STATE/lab-HASH.d/ovn-CLUSTER}. */
    static final String OVN_DIRECTORY_PREFIX = "ovn-";

    private final CommandRunner runner;
    private final LabStateFile stateFile;
    private final Function<ClusterSetPlan, FlowSimulation> simulations;
    private final Supplier<MachineCapacity> capacity;

    public LabProbe(CommandRunner runner, LabStateFile stateFile, Function<ClusterSetPlan, FlowSimulation> simulations) {
        this(runner, stateFile, simulations, MachineCapacity::read);
    }

    /** With the machine's capacity as {@code capacity} reads it (a test's small machine). */
    public LabProbe(CommandRunner runner, LabStateFile stateFile, Function<ClusterSetPlan, FlowSimulation> simulations, Supplier<MachineCapacity> capacity) {
        this.runner = runner;
        this.stateFile = stateFile;
        this.simulations = simulations;
        this.capacity = capacity;
    }

    /**
     * @throws TopologyException when the file cannot be used
     * @throws LabRefusal        when not root, when no lab of the file is up, when no flow has the name given, or
     *                           when the machine cannot hold what the probe would capture ({@link ProbeMemory})
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
        LabState state = stateFile.requireUp(layout.names().hash(), set.name(), file);
        // The lab must be the one this file describes: another file of the same name, or this one
        // edited since, would send packets through namespaces the plan does not describe.
        TopologySource source = TopologySource.of(file);
        source.otherFile(state).ifPresent(other -> {
            throw new LabRefusal(other + ".\nProbe it with 'lab probe " + state.file() + "', or replace it: 'lab down "
                    + state.file() + "', then 'lab up " + file + "'");
        });
        source.changedSince(state).ifPresent(changed -> {
            throw new LabRefusal(changed + "; the lab no longer matches it.\nRebuild it: 'lab down " + file + "', then 'lab up " + file + "'");
        });
        // Single-active clusters: the agents program the lease holders as active gateways (see LabLeases).
        Map<String, String> holders = LabLeases.holders(stateFile.directoryFor(state.hash()), set);
        ClusterSetPlan current = holders.isEmpty() ? plan : Planner.plan(LabLeases.withHolders(set, holders));
        List<Flow> flows = flowName.map(name -> List.of(set.flow(name).orElseThrow(() -> new LabRefusal("no flow named '" + name
                + "' in " + file + "; its flows are: " + set.flows().stream().map(Flow::name).collect(Collectors.joining(", "))))))
                .orElse(set.flows());
        FlowSimulation simulation = simulations.apply(simulated(set, holders, current, state, progress));
        List<ClusterDns> dns = clusterDns(set, layout);
        Map<HostId, HostNamespace> hosts = new HashMap<>();
        Map<String, HostNamespace> named = new HashMap<>();
        Map<String, HostNamespace> byNamespace = new HashMap<>();
        layout.hosts().forEach(h -> {
            hosts.put(h.host(), h);
            named.put(h.host().toString(), h);
            byNamespace.put(h.namespace(), h);
        });
        Map<HostId, WireGuardProcess> wireGuard = new HashMap<>();
        for (WireGuardProcess daemon : state.wireGuard()) {
            Optional.ofNullable(byNamespace.get(daemon.namespace())).ifPresent(h -> wireGuard.put(h.host(), daemon));
        }
        Set<Integer> vxlanPorts = new TreeSet<>();
        current.hosts().values().forEach(h -> h.submariner().vxlanDevices().forEach(d -> vxlanPorts.add(d.port())));
        LabInterfaces interfaces = new LabInterfaces(runner);
        long readStart = System.nanoTime();
        List<HostNamespace> nodes = layout.nodes();
        nodes.forEach(interfaces::of);
        Map<String, Path> ovnDirectories = new HashMap<>();
        for (String directory : state.ovnRunDirectories()) {
            Path path = Path.of(directory);
            String name = path.getFileName().toString();
            if (name.startsWith(OVN_DIRECTORY_PREFIX)) {
                ovnDirectories.put(name.substring(OVN_DIRECTORY_PREFIX.length()), path);
            }
        }
        LabHosts lab = new LabHosts(current, hosts, named, nodes, interfaces, LinkTimings.of(set), wireGuard,
                new SouthboundTrace(runner, ovnDirectories));
        // Names are asked for real once, before sizing: the answer decides where a flow's packets
        // go, so the flow is sized and then probed toward the same address.
        List<Optional<RealAnswer>> answers = new ArrayList<>();
        for (Flow flow : flows) {
            answers.add(ask(flow, set, dns, lab));
        }
        // Sized before anything is captured: each flow's captures and servers (reading the
        // interfaces of the pods it crosses), then the largest against the machine. Only the
        // counts are kept; a flow's paths are traced again when its turn comes.
        List<ProbeMemory.FlowFootprint> footprints = new ArrayList<>();
        for (int index = 0; index < flows.size(); index++) {
            Flow flow = flows.get(index);
            if (setup(flow, set.flows().indexOf(flow), simulation, lab, answers.get(index)) instanceof FlowSetup.Ready ready) {
                footprints.add(ready.footprint(flow.name()));
            }
        }
        ProbeMemory memory = ProbeMemory.of(ProbeMemory.heapNowKib(), footprints);
        memory.refusal(capacity.get()).ifPresent(reason -> {
            throw new LabRefusal("the machine cannot hold this probe, nothing was captured:\n  " + reason);
        });
        progress.accept("probe: " + flows.size() + " flow" + (flows.size() == 1 ? "" : "s") + "; read the interfaces of " + nodes.size()
                + " nodes and sized every flow (" + (System.nanoTime() - readStart) / 1_000_000 + " ms); each flow captures on the nodes and"
                + " on the pods its simulated paths cross; " + memory.describe());

        List<FlowProbeResult> results = new ArrayList<>();
        for (int index = 0; index < flows.size(); index++) {
            Flow flow = flows.get(index);
            long start = System.nanoTime();
            String counter = "flow " + (index + 1) + "/" + flows.size() + " " + flow.name();
            FlowProbeResult result = switch (setup(flow, set.flows().indexOf(flow), simulation, lab, answers.get(index))) {
                case FlowSetup.Unprobed unprobed -> unprobed.result();
                case FlowSetup.Ready ready -> probe(flow, ready, simulation, lab, vxlanPorts, line -> progress.accept(counter + ": " + line));
            };
            results.add(result);
            progress.accept(counter + ": " + summary(result) + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
        }
        return new ProbeReport(set.name(), results);
    }

    private static List<ClusterDns> clusterDns(ClusterSet set, LabLayout layout) {
        try {
            return ClusterDns.of(set, layout);
        } catch (IllegalArgumentException e) {
            // lab up refused such a file; a lab without DNS Service then answers no name, which the probe reports.
            return List.of();
        }
    }

    /**
     * The lab's hosts by id and by name, its nodes, the interfaces read so far, the wireguard-go
     * daemon of each gateway with a WireGuard device, and OVN's account of packets inside its clusters.
     */
    private record LabHosts(ClusterSetPlan plan, Map<HostId, HostNamespace> byId, Map<String, HostNamespace> byName, List<HostNamespace> nodes,
                            LabInterfaces interfaces, LinkTimings timings, Map<HostId, WireGuardProcess> wireGuard, OvnAccount ovn) {
    }

    /** What real DNS answered, in the source's namespace, for a flow written with a name. */
    private sealed interface RealAnswer {

        /** @param addresses in the order the client got them; empty when it got none */
        record Addresses(String name, HostNamespace asker, List<Ipv4Address> addresses) implements RealAnswer {
        }

        /** The lookup itself could not run. */
        record LookupFailed(String problem) implements RealAnswer {
        }
    }

    /** What probing a flow takes, or why it cannot be probed. */
    private sealed interface FlowSetup {

        record Unprobed(FlowProbeResult result) implements FlowSetup {
        }

        /**
         * @param target  where the packets go: for a name, the address real DNS answered first
         * @param watched the hosts captured and served in: every node and the pods the simulated paths cross
         * @param targets the interfaces captured
         * @param dns     for a flow written with a name: its real answer next to the simulator's
         */
        record Ready(ProbeTarget target, HostNamespace source, int firstPort, List<TracePath> simulated, Set<HostNamespace> watched,
                     List<CaptureTarget> targets, Set<Integer> tcpPorts, Set<Integer> udpPorts, Optional<NameResolution> dns)
                implements FlowSetup {

            ProbeMemory.FlowFootprint footprint(String flow) {
                return new ProbeMemory.FlowFootprint(flow, targets.size(), watched.size(), EchoServers.sockets(watched, tcpPorts, udpPorts));
            }
        }
    }

    static String summary(FlowProbeResult result) {
        if (result.problem().isPresent()) {
            return "not probed: " + result.problem().get();
        }
        Optional<NameResolution> dns = result.dns().filter(d -> !d.matches());
        if (result.unanswered().isPresent()) {
            return dns.map(d -> "differs: " + d.difference().orElseThrow().describe())
                    .orElse("unreachable, as simulated: " + result.unanswered().get() + "; a client gets no address, so nothing is sent");
        }
        long delivered = result.attempts().stream().filter(a -> a.outcome().disposition().equals("delivered")).count();
        return result.attempts().size() + " probes, " + delivered + " delivered, " + result.pathsSeen().size() + " of "
                + result.simulatedPaths() + " simulated paths taken, " + (result.matchesSimulation() ? "matches the simulation"
                : "differs: " + result.firstDifference().map(d -> d.describe()).orElse("no probe matched"));
    }

    /**
     * A flow written with a DNS name, looked up for real in its source's namespace ({@link NameLookup});
     * empty for a flow written with an address, or whose source the lab does not have (its setup says why).
     */
    private Optional<RealAnswer> ask(Flow flow, ClusterSet set, List<ClusterDns> dns, LabHosts lab) {
        if (!(flow.to() instanceof FlowTarget.DnsTarget target)) {
            return Optional.empty();
        }
        Optional<HostNamespace> asker = sourceHost(set, flow).map(lab.byId()::get);
        if (asker.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new RealAnswer.Addresses(target.name(), asker.get(),
                    new NameLookup(runner).addresses(asker.get(), ClusterDns.of(dns, flow.from().cluster()), target.name())));
        } catch (IllegalStateException e) {
            return Optional.of(new RealAnswer.LookupFailed(e.getMessage()));
        }
    }

    /**
     * A flow written with a DNS name has its real answer ({@code answer}) compared with the
     * simulator's ({@link NameResolution}); the packets then go where the real answer points, as a
     * client's would. When neither has an address (the server leaves every cluster out) the packets
     * go where the simulator's trace goes, the address Lighthouse would have answered, so the path is
     * still compared.
     */
    private FlowSetup setup(Flow flow, int flowIndex, FlowSimulation simulation, LabHosts lab, Optional<RealAnswer> answer) {
        ProbeTarget target;
        try {
            target = simulation.resolve(flow);
        } catch (FlowSimulation.UnansweredName e) {
            FlowProbeResult unanswered = FlowProbeResult.unanswered(flow.name(), flow.from().toString(), flow.to().toString(), e.getMessage());
            return new FlowSetup.Unprobed(switch (answer.orElse(null)) {
                case null -> unanswered;
                case RealAnswer.Addresses real -> unanswered.withDns(
                        new NameResolution(real.name(), real.asker().host().toString(), real.addresses(), List.of(), Optional.empty()));
                case RealAnswer.LookupFailed failed -> new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), "", 0,
                        List.of(), Optional.of(failed.problem()));
            });
        } catch (IllegalArgumentException e) {
            return new FlowSetup.Unprobed(new FlowProbeResult(flow.name(), flow.from().toString(), flow.to().toString(), "", 0, List.of(),
                    Optional.of(e.getMessage())));
        }
        Optional<HostNamespace> source = Optional.ofNullable(lab.byId().get(target.source()));
        if (source.isEmpty()) {
            return new FlowSetup.Unprobed(failed(flow, target, 0, "the lab has no namespace for " + target.source()));
        }
        Optional<NameResolution> resolution = Optional.empty();
        switch (answer.orElse(null)) {
            case null -> {
            }
            case RealAnswer.LookupFailed failed -> {
                return new FlowSetup.Unprobed(failed(flow, target, 0, failed.problem()));
            }
            case RealAnswer.Addresses real -> {
                if (!real.addresses().isEmpty()) {
                    target = target.withDestination(real.addresses().getFirst());
                }
                resolution = Optional.of(new NameResolution(real.name(), source.get().host().toString(), real.addresses(),
                        simulation.answers(flow), Optional.of(target.destination())));
            }
        }
        int firstPort = FIRST_SOURCE_PORT + 100 * flowIndex;
        List<TracePath> simulatedPathList = simulation.paths(target, firstPort);
        Set<Integer> ports = serverPorts(simulation, target, firstPort);
        // Captures and servers where this flow can go, not in every namespace of the lab: every
        // node (a packet the simulator does not expect shows where it leaves a node) and the pods
        // the simulated paths cross. A lab of thousands of pods then costs per flow what a small
        // one does.
        Set<HostNamespace> watched = new LinkedHashSet<>(lab.nodes());
        watched.add(source.get());
        for (TracePath path : simulatedPathList) {
            for (TraceHop hop : concat(path.forward(), path.reply())) {
                Optional.ofNullable(lab.byName().get(hop.node())).ifPresent(watched::add);
            }
        }
        Set<HostId> watchedIds = new HashSet<>();
        watched.forEach(h -> watchedIds.add(h.host()));
        List<CaptureTarget> targets = new ArrayList<>();
        // A node holds one veth end per pod on it: only those toward watched pods are captured.
        watched.forEach(h -> lab.interfaces().of(h).stream()
                .filter(t -> !h.isNode() || !leadsToAnUnwatchedPod(lab.plan(), t, watchedIds))
                .forEach(targets::add));
        return new FlowSetup.Ready(target, source.get(), firstPort, simulatedPathList, watched, List.copyOf(targets),
                target.protocol() == Protocol.TCP ? ports : Set.of(), target.protocol() == Protocol.UDP ? ports : Set.of(), resolution);
    }

    /** The host whose socket sends: a pod's namespace, or its node's for a host-network pod and for a node. */
    private static Optional<HostId> sourceHost(ClusterSet set, Flow flow) {
        Optional<Cluster> cluster = set.cluster(flow.from().cluster());
        if (cluster.isEmpty()) {
            return Optional.empty();
        }
        return switch (flow.from()) {
            case FlowSource.PodSource p -> cluster.get().pod(p.namespace(), p.pod())
                    .map(pod -> pod.hostNetwork() ? HostId.node(cluster.get().name(), pod.node()) : HostId.pod(cluster.get().name(), pod.namespace(), pod.name()));
            case FlowSource.NodeSource n -> Optional.of(HostId.node(cluster.get().name(), n.node()));
        };
    }

    private FlowProbeResult probe(Flow flow, FlowSetup.Ready setup, FlowSimulation simulation, LabHosts lab, Set<Integer> vxlanPorts,
                                  Consumer<String> progress) {
        setup.dns().ifPresent(dns -> progress.accept("dns: " + dns.name() + " from " + dns.asker() + ": " + NameResolution.describe(dns.observed())
                + (dns.matches() ? ", as the simulator answers" : ", the simulator answers " + dns.describeSimulated())
                + "; sending to " + setup.target().destination()));
        FlowProbeResult result = send(flow, setup, simulation, lab, vxlanPorts, progress);
        return setup.dns().map(result::withDns).orElse(result);
    }

    /** The flow's connections, round after round of captures, each compared with the simulated paths. */
    private FlowProbeResult send(Flow flow, FlowSetup.Ready setup, FlowSimulation simulation, LabHosts lab, Set<Integer> vxlanPorts,
                                 Consumer<String> progress) {
        ProbeTarget target = setup.target();
        int simulatedPaths = setup.simulated().size();
        int firstPort = setup.firstPort();
        LabWiring wiring = new LabWiring(lab.plan(), lab.interfaces().macs());
        progress.accept("capturing on " + setup.targets().size() + " interfaces of " + setup.watched().size() + " hosts, " + simulatedPaths
                + " simulated path" + (simulatedPaths == 1 ? "" : "s"));
        forgetConnections(lab.nodes());
        lab.ovn().forgetConnections();
        ProbeTraffic traffic = new ProbeTraffic(runner, lab.timings().patience(ProbeTraffic.TIMEOUT));
        List<ObservedAttempt> attempts = new ArrayList<>();
        Set<Integer> seen = new TreeSet<>();
        try (EchoServers servers = EchoServers.start(setup.watched(), setup.tcpPorts(), setup.udpPorts());
             NamespaceThread sender = NamespaceThread.enter(setup.source().namespace())) {
            int rounds = target.protocol() == Protocol.ICMP ? 1 : MAX_ROUNDS;
            // A sized echo is recognised by its own length, so there is one of it.
            int perRound = target.protocol() == Protocol.ICMP ? (target.sized() ? 1 : ICMP_PROBES) : ROUND;
            for (int round = 0; round < rounds && seen.size() < simulatedPaths; round++) {
                List<AttemptOutcome> outcomes = new ArrayList<>();
                List<Sighting> sightings;
                // Read around the captures, so every packet they see falls between the two readings.
                Map<HostId, WireGuardCounters> countedBefore = wireGuardCounters(lab);
                try (CaptureSession session = CaptureSession.start(setup.targets(), vxlanPorts)) {
                    for (int k = 0; k < perRound; k++) {
                        int n = round * perRound + k;
                        if (target.sized()) {
                            forgetPathMtu(setup.source().namespace());
                        }
                        // A port still held by a connection of an earlier run sends nothing: that probe is skipped.
                        switch (target.protocol()) {
                            case TCP -> traffic.tcp(sender, target, firstPort + n, "periscope probe " + flow.name() + " " + n + "\n")
                                    .ifPresent(outcomes::add);
                            case UDP -> traffic.udp(sender, target, firstPort + n, flow.name() + "/" + n + "/" + System.nanoTime())
                                    .ifPresent(outcomes::add);
                            case ICMP -> outcomes.add(traffic.icmp(setup.source().namespace(), target,
                                    target.sized() ? target.size() - ProbeTraffic.ICMP_OVERHEAD : FIRST_ICMP_SIZE + n));
                        }
                    }
                    sightings = session.stop();
                }
                WireGuardReceipts receipts = new WireGuardReceipts(countedBefore, wireGuardCounters(lab));
                for (AttemptOutcome outcome : outcomes) {
                    ObservedAttempt attempt = analyse(outcome, target, wiring, sightings, receipts, servers, simulation, routes(lab.byId()),
                            lab.ovn());
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
     * Every WireGuard device's counters now, by gateway: WireGuard drops without a word on the wire,
     * and what its devices counted is how a drop inside one is told ({@link WireGuardReceiveDrop}).
     * A device whose counters cannot be read is left out, and a drop there is placed, not explained.
     */
    private Map<HostId, WireGuardCounters> wireGuardCounters(LabHosts lab) {
        WireGuardCounterReader reader = new WireGuardCounterReader(runner);
        Map<HostId, WireGuardCounters> counted = new HashMap<>();
        lab.wireGuard().forEach((gateway, daemon) -> lab.byId().get(gateway).plan().submariner().wireGuardDevices()
                .forEach(device -> reader.read(daemon, device.name()).ifPresent(c -> counted.put(gateway, c))));
        return counted;
    }

    /**
     * Empties the sender's path MTU cache: an ICMP fragmentation needed that an earlier sized probe
     * brought back would otherwise make the kernel refuse (or fragment) the next one itself, where the
     * simulator, which traces a first packet, sends it.
     */
    private void forgetPathMtu(String namespace) {
        runner.execute(Command.of("ip", "-4", "route", "flush", "cache").inNamespace(namespace));
    }

    /**
     * The plan the probe's packets are compared with: the lab as its agents program it, and, while
     * {@code lab fail} has nodes failed, without those it took out (a crash or a blackhole: the other
     * agents withdraw them; a node whose agents alone stopped still forwards), as {@code trace --fail}
     * plans it. Said on the progress line, so a reader knows which simulation a difference is from.
     */
    static ClusterSetPlan simulated(ClusterSet set, Map<String, String> holders, ClusterSetPlan current, LabState state,
                                            Consumer<String> progress) {
        if (state.failures().isEmpty()) {
            return current;
        }
        List<String> withdrawn = state.failures().stream().filter(f -> !f.mode().equals("agent-stop")).map(f -> f.node()).toList();
        progress.accept("probe: comparing with the simulation of the lab as 'lab fail' left it: "
                + state.failures().stream().map(f -> f.node() + " (" + f.mode() + ")").collect(Collectors.joining(", "))
                + (withdrawn.isEmpty() ? "; its datapath still forwards, so the simulation is the all-up one" : " failed, as 'trace --fail' plans it"));
        if (withdrawn.isEmpty()) {
            return current;
        }
        return Planner.planWithout(holders.isEmpty() ? set : LabLeases.withHolders(set, holders), withdrawn);
    }

    /**
     * Empties every node's connection table: NAT state left by an earlier probe would otherwise
     * carry a packet where the simulator, which starts every trace without connections, would not.
     */
    private void forgetConnections(List<HostNamespace> nodes) {
        for (HostNamespace node : nodes) {
            runner.execute(Command.of("conntrack", "-F").inNamespace(node.namespace()));
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
            CommandResult result = runner.execute(new Command(argv, ""));
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
                                           WireGuardReceipts receipts, EchoServers servers, FlowSimulation simulation, RouteQuery routes,
                                           OvnAccount ovn) {
        TracePath observed = new AttemptAnalysis(target, wiring, sightings, routes, receipts, ovn).observe(outcome,
                port -> servers.awaitDelivery(d -> d.received().proto() == target.protocol() && d.received().sport() == port,
                        outcome.disposition().equals("delivered") ? 1_000 : 0));
        List<TracePath> simulated = simulation.paths(target, outcome.sourcePort());
        return new ObservedAttempt(outcome, observed, simulated, PathComparison.compare(observed, simulated));
    }
}
