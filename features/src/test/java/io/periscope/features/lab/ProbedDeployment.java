package io.periscope.features.lab;

import io.periscope.dataplane.reconcile.DataplaneReader;
import io.periscope.dataplane.sysctl.SysctlCommands;
import io.periscope.features.backend.CableCrossing;
import io.periscope.features.backend.CableSecrecy;
import io.periscope.features.backend.Deployment;
import io.periscope.features.backend.Evidence;
import io.periscope.features.backend.EvidenceLog;
import io.periscope.features.backend.RoundTrips;
import io.periscope.features.backend.Throughput;
import io.periscope.lab.agent.NamespaceCommandRunner;
import io.periscope.lab.bench.BenchReport;
import io.periscope.lab.bench.LabBench;
import io.periscope.lab.capture.CaptureSession;
import io.periscope.lab.capture.CaptureTarget;
import io.periscope.lab.capture.WholeFrame;
import io.periscope.lab.dns.ClusterDns;
import io.periscope.dataplane.ovn.NbctlNorthbound;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.ovn.PlannedOvnCluster;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.LabProbe;
import io.periscope.lab.probe.NameLookup;
import io.periscope.lab.probe.NameResolution;
import io.periscope.lab.probe.ObservedAttempt;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.netfilter.Table;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.RuleRef;
import io.periscope.simulator.trace.Step;

import io.periscope.features.backend.GatewayFailover;
import io.periscope.lab.failover.FailoverReport;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailover;
import io.periscope.lab.failover.UpLab;
import io.periscope.labsimulator.SimulatorBench;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.labsimulator.SimulatorFlows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A cluster set up in the lab.
 *
 * <p>Traces are real packets: {@link LabProbe} sends the flow until every path the simulator offers
 * has been taken (or its rounds run out) and compares every hop the captures saw, field by field
 * (node, interfaces, addresses on arrival and departure, encapsulation, disposition), with the
 * simulator's path through the same hosts; a flow written with a DNS name is first resolved by real
 * DNS in the source's namespace, and the packets go to that answer. A flow whose packets went anywhere else, or carried other
 * addresses anywhere, fails the step with the lab's first difference. The trace returned holds the
 * simulated paths the packets matched, one per distinct path taken, so the steps check the hops the
 * kernel took. A packet carries no rule name, so the rules come from the kernel's counters: every
 * rule the matched paths name (marks, SNAT and DNAT by a rule, filter verdicts, NOTRACK) must be in
 * the node's {@code iptables-save -c} and must have counted at least one packet during the probe,
 * else the step fails naming the rule (a nat-table verdict on a node that tracks no connections
 * aside, see {@link #countable}). Translations conntrack does on its own (un-SNAT, un-DNAT of a
 * reply) name no rule and are checked by their addresses only.
 *
 * <p>Programmed state is read back from the host's namespace with the agents' own reader
 * ({@code iptables-save}, {@code ipset save}, {@code ip -j}, {@code bridge -j fdb}, and the sysctls
 * the plan sets), every layer, Periscope's or not. Plain interfaces are the plan's: {@code lab up}
 * creates exactly those. The lab runs no Kubernetes API, broker or Globalnet controller: the planner
 * decides the allocations, the Endpoints and which clusters connect, and the agents program them. So
 * those answers are read where the agents put them: the connections from the cables the gateways'
 * kernels hold ({@link KernelTunnels}), the allocations from the addresses in the nodes' netfilter
 * rules ({@link KernelGlobalIps}), the Endpoints from both ({@link KernelEndpoints}); what no kernel
 * shows stays the plan's and is recorded as the model's. Names are answered by each cluster's real
 * DNS server, which the lab's supervisor runs inside the cluster ({@link #askDns}, {@link #resolve}).
 */
public final class ProbedDeployment implements Deployment {

    private final ClusterSet set;
    private final CommandRunner runner;
    private final LabStateFile stateFile;
    private final Path file;
    private final ClusterSetPlan plan;
    private final Simulator simulator;
    private final LabLayout layout;
    private final List<ClusterDns> dns;

    public ProbedDeployment(ClusterSet set, CommandRunner runner, LabStateFile stateFile, Path file) {
        this.set = set;
        this.runner = runner;
        this.stateFile = stateFile;
        this.file = file;
        this.plan = Planner.plan(LabCables.of(set).set());
        this.simulator = new Simulator(plan);
        this.layout = LabLayout.of(plan);
        this.dns = ClusterDns.of(set, layout);
    }

    /** The cluster's logical network read back from its northbound database in the lab ({@code ovn-nbctl list}). */
    @Override
    public Optional<io.periscope.plan.ovn.OvnTopology> ovnTopology(String cluster) {
        if (!onOvn(cluster)) {
            return Optional.empty();
        }
        EvidenceLog.record(Evidence.OVN_DATABASES);
        String northbound = PlannedOvnCluster.northbound(stateFile.directoryFor(layout.names().hash()), cluster);
        return Optional.of(NorthboundTopology.of(cluster, new NbctlNorthbound(runner, northbound).read()));
    }

    @Override
    public List<io.periscope.plan.ovn.OvsBridge> ovsBridges(HostId node) {
        if (!onOvn(node.cluster())) {
            return List.of();
        }
        EvidenceLog.record(Evidence.OVN_DATABASES);
        String database = PlannedOvnCluster.nodeDatabase(stateFile.directoryFor(layout.names().hash()), node.cluster(), node.name());
        return new io.periscope.dataplane.ovs.OvsBridgeProgrammer(io.periscope.dataplane.command.ProcessCommandRunner.inNamespace(namespace(node)),
                Optional.of(database))
                .mappedBridges(node.name());
    }

    private boolean onOvn(String cluster) {
        return set.cluster(cluster).map(c -> c.cni() == io.periscope.model.topology.Cni.OVN_KUBERNETES).orElse(false);
    }

    @Override
    public ClusterSet clusterSet() {
        return set;
    }

    @Override
    public FlowTrace trace(Flow flow) throws FlowResolutionException {
        // Captured hops, and the rules they name confirmed by the kernel's counters.
        EvidenceLog.record(Evidence.REAL_PACKETS);
        EvidenceLog.record(Evidence.KERNEL_STATE);
        ResolvedFlow resolved = simulator.resolver().resolve(flow);
        Flow named = new Flow(unusedName(flow), flow.from(), flow.to(), flow.protocol(), flow.expect());
        ClusterSet withFlow = set.withFlows(append(set.flows(), named));
        RuleCounters before = RuleCounters.read(runner, layout.nodes());
        ProbeReport report = new LabProbe(runner, stateFile, SimulatorFlows::new)
                .run(file, withFlow, Optional.of(named.name()), line -> { });
        RuleCounters after = RuleCounters.read(runner, layout.nodes());
        FlowProbeResult result = report.flows().getFirst();
        result.problem().ifPresent(problem -> {
            throw new AssertionError("the lab could not probe " + describe(flow) + ": " + problem);
        });
        if (result.attempts().isEmpty()) {
            throw new AssertionError("the lab sent no probe of " + describe(flow) + " (every source port was still in use)");
        }
        List<PathTrace> taken = new ArrayList<>();
        for (ObservedAttempt attempt : result.attempts()) {
            if (!attempt.match().matches()) {
                throw new AssertionError("real packets of " + describe(flow) + " (source port " + attempt.outcome().sourcePort()
                        + ") took a path the simulation does not have: "
                        + attempt.match().firstDifference().map(d -> d.describe()).orElse("no simulated path goes through the same hosts")
                        + "\nobserved: " + attempt.observed().route());
            }
            // A name goes where real DNS answered in the lab, which the probe checked against the simulator's answers.
            Ipv4Address destination = result.dns().flatMap(NameResolution::sentTo).orElse(resolved.destination());
            ResolvedFlow sent = new ResolvedFlow(resolved.source(), resolved.sourceIp(), destination, resolved.port(),
                    resolved.protocol(), attempt.outcome().sourcePort());
            PathTrace path = simulator.trace(sent).get(attempt.match().simulatedPath());
            if (taken.stream().noneMatch(p -> sameHops(p, path))) {
                taken.add(path);
            }
        }
        Set<String> uncounted = new LinkedHashSet<>();
        for (PathTrace path : taken) {
            for (Hop hop : concat(path.forward(), path.reply())) {
                for (Step step : hop.steps()) {
                    rule(step).filter(rule -> countable(step, hop.node(), after)).ifPresent(rule -> {
                        long was = before.count(hop.node(), rule);
                        long is = after.count(hop.node(), rule);
                        if (is < 0) {
                            uncounted.add(hop.node() + ": the kernel has no rule " + rule);
                        } else if (is <= was) {
                            uncounted.add(hop.node() + ": " + rule + " counted no packet of the probe (" + was + " before and after)");
                        }
                    });
                }
            }
        }
        if (!uncounted.isEmpty()) {
            throw new AssertionError("real packets of " + describe(flow) + " took the simulated hops, but the rules the simulation "
                    + "names did not all match them in the kernel (iptables-save -c before and after the probe):\n  "
                    + String.join("\n  ", uncounted));
        }
        return new FlowTrace(flow.name(), flow.from().toString(), flow.to().toString(), result.resolved(), taken);
    }

    /**
     * Shown on the wire: for each pair of clusters the followed paths cross between, echo requests
     * from the flow's source to the address its packet has inside the cable, each carrying a random
     * 16-byte marker ({@code ping -p}), while every gateway of both clusters captures whole frames
     * on its underlay; {@link UnderlayEvidence} then judges the frames between the two clusters. A
     * pair whose policies chose Libreswan is not shown: this kernel has no XFRM, so the lab builds
     * that cable as VXLAN ({@link LabCables}), and no ESP is on the wire to look at.
     */
    @Override
    public CableSecrecy secrecy(List<PathTrace> followed) {
        List<CableCrossing> crossings = CableCrossing.of(followed);
        if (crossings.isEmpty()) {
            return new CableSecrecy.Contradicted("no followed path crosses from one cluster to another");
        }
        List<ClusterGraph.Connection> chosen = ClusterGraph.of(set).connections();
        Map<Set<String>, List<CableCrossing>> byPair = new java.util.LinkedHashMap<>();
        for (CableCrossing crossing : crossings) {
            Set<String> pair = Set.of(crossing.sender().node().cluster(), crossing.receiver().node().cluster());
            Optional<CableDriver> driver = chosen.stream().filter(c -> Set.of(c.left(), c.right()).equals(pair))
                    .map(c -> c.cableDriver().name()).findFirst();
            if (driver.filter(d -> d == CableDriver.LIBRESWAN).isPresent()) {
                return new CableSecrecy.NotShown("the lab substitutes Libreswan: this kernel has no XFRM (no ESP), so the lab builds the "
                        + "cable between " + String.join(" and ", new java.util.TreeSet<>(pair)) + " as VXLAN, and no ESP is on its wire");
            }
            byPair.computeIfAbsent(pair, p -> new ArrayList<>()).add(crossing);
        }
        List<String> shown = new ArrayList<>();
        for (List<CableCrossing> pair : byPair.values()) {
            CableSecrecy secrecy = showOnTheWire(followed.getFirst().forward().getFirst().node(), pair);
            if (!(secrecy instanceof CableSecrecy.Shown(String how))) {
                return secrecy;
            }
            shown.add(how);
        }
        return new CableSecrecy.Shown(String.join("; ", shown));
    }

    private CableSecrecy showOnTheWire(HostId source, List<CableCrossing> crossings) {
        CableCrossing first = crossings.getFirst();
        String from = first.sender().node().cluster();
        String to = first.receiver().node().cluster();
        Optional<Step.Encap> wrapped = crossings.stream().flatMap(c -> c.encap().stream()).findFirst();
        if (wrapped.isEmpty()) {
            return new CableSecrecy.Contradicted("the lab's packets from " + first.sender().node() + " to " + first.receiver().node()
                    + " crossed unwrapped, as the simulated hop they matched says");
        }
        String underlay = wrapped.get().underlay();
        Set<Integer> ports = new java.util.TreeSet<>();
        Set<Ipv4Address> inner = new java.util.TreeSet<>(java.util.Comparator.comparingLong(a -> Integer.toUnsignedLong(a.bits())));
        for (CableCrossing crossing : crossings) {
            crossing.encap().ifPresent(e -> ports.add(e.port()));
            inner.add(crossing.inner().src());
            inner.add(crossing.inner().dst());
        }
        List<CaptureTarget> targets = new ArrayList<>();
        for (String cluster : List.of(from, to)) {
            set.requireCluster(cluster).nodes().stream().filter(n -> n.gateway())
                    .map(n -> HostId.node(cluster, n.name())).forEach(gateway -> layout.host(gateway)
                            .ifPresent(ns -> targets.add(CaptureTarget.forWholeFrames(gateway, ns.namespace(), underlay))));
        }
        byte[] marker = new byte[16];
        new java.security.SecureRandom().nextBytes(marker);
        String pattern = java.util.HexFormat.of().formatHex(marker);
        HostNamespace sender = layout.host(source).orElseThrow(() -> new AssertionError("the lab has no host " + source));
        EvidenceLog.record(Evidence.REAL_PACKETS);
        CommandResult ping;
        List<WholeFrame> frames;
        try (CaptureSession capture = CaptureSession.keepingWholeFrames(targets, UnderlayEvidence.SNAPLEN)) {
            ping = runner.execute(Command.of("ping", "-n", "-c", "3", "-i", "0.2", "-W", "2", "-s", "64", "-p", pattern,
                    first.inner().dst().toString()).inNamespace(sender.namespace()));
            frames = capture.stopWithFrames();
        }
        if (!ping.stdout().matches("(?s).* [1-9][0-9]* received.*")) {
            return new CableSecrecy.Contradicted("no echo request from " + source + " to " + first.inner().dst()
                    + " was answered, so nothing crossed the cable both ways to look at: " + (ping.stdout() + ping.stderr()).strip());
        }
        return new UnderlayEvidence(side(from), side(to), ports, marker, inner).judge(frames);
    }

    /** A cluster's nodes' underlay addresses, and their public ones where a node has one. */
    private UnderlayEvidence.Side side(String cluster) {
        Set<Ipv4Address> addresses = new LinkedHashSet<>();
        set.requireCluster(cluster).nodes().forEach(n -> {
            addresses.add(n.ip());
            n.publicIp().ifPresent(addresses::add);
        });
        return new UnderlayEvidence.Side(cluster, addresses);
    }

    /**
     * Whether the kernel counts a packet for the step's rule. The nat table sees a packet only when
     * the packet belongs to a connection, and nftables tracks connections in a namespace only once
     * some rule there needs them (a NAT target, a conntrack match): on a node with none, an ACCEPT in
     * the nat table is never reached. It translates nothing, so the untranslated addresses the
     * captures confirmed are the whole of its effect.
     */
    private static boolean countable(Step step, HostId node, RuleCounters counters) {
        // An OVN load balancer is a northbound row, not a netfilter rule: no iptables-save counts it.
        // Its evidence is OVN's own trace of the captured packet, which the probe already compared
        // hop for hop (the logical router that translates, and the addresses before and after).
        if (rule(step).filter(rule -> rule.table().equals("ovn")).isPresent()) {
            return false;
        }
        return !(step instanceof Step.Filter filter && filter.rule().table().equals("nat") && !counters.tracksConnections(node));
    }

    /** The rule a step names, where the step is a rule's doing (a translation by conntrack has none). */
    private static Optional<RuleRef> rule(Step step) {
        return switch (step) {
            case Step.Mark mark -> Optional.of(mark.rule());
            case Step.Mss mss -> Optional.of(mss.rule());
            case Step.Snat snat -> snat.rule();
            case Step.Dnat dnat -> dnat.rule();
            case Step.Filter filter -> Optional.of(filter.rule());
            case Step.NoTrack noTrack -> Optional.of(noTrack.rule());
            default -> Optional.empty();
        };
    }

    private static List<Hop> concat(List<Hop> forward, List<Hop> reply) {
        List<Hop> all = new ArrayList<>(forward);
        all.addAll(reply);
        return all;
    }

    /** The same path, whatever source port took it: the hosts and interfaces crossed, both ways. */
    private static boolean sameHops(PathTrace a, PathTrace b) {
        return a.disposition() == b.disposition() && route(a).equals(route(b));
    }

    private static String route(PathTrace path) {
        return path.forward().stream().map(h -> h.node() + "/" + h.in() + "/" + h.out()).collect(Collectors.joining(" "))
                + " | " + path.reply().stream().map(h -> h.node() + "/" + h.in() + "/" + h.out()).collect(Collectors.joining(" "));
    }

    private String unusedName(Flow flow) {
        String base = flow.name() == null || flow.name().isBlank() ? "acceptance" : flow.name();
        String name = base;
        for (int n = 2; set.flow(name).isPresent(); n++) {
            name = base + "-" + n;
        }
        return name;
    }

    private static List<Flow> append(List<Flow> flows, Flow flow) {
        List<Flow> all = new ArrayList<>(flows);
        all.add(flow);
        return all;
    }

    private static String describe(Flow flow) {
        return flow.protocol() + " from " + flow.from() + " to " + flow.to();
    }

    /** glibc's answer in the pod's namespace (dig at the DNS Service from a node): the first address, as a client takes it. */
    @Override
    public Ipv4Address resolve(FlowSource from, String dnsName) throws FlowResolutionException {
        // glibc in the pod's namespace asks the cluster's DNS server over the lab's wires.
        EvidenceLog.record(Evidence.REAL_PACKETS);
        HostNamespace asker = asker(from);
        List<Ipv4Address> answer = new NameLookup(runner).addresses(asker, ClusterDns.of(dns, from.cluster()), dnsName);
        if (answer.isEmpty()) {
            throw new FlowResolutionException("nothing answers '" + dnsName + "' in " + asker.host() + " (the cluster's DNS server in the lab)");
        }
        return answer.getFirst();
    }

    /**
     * {@code dig} inside the pod's namespace, which reads the pod's {@code resolv.conf} (the cluster's
     * DNS Service, DNATed to the server the supervisor runs); from a node, at the DNS Service address.
     */
    @Override
    public Optional<List<String>> askDns(FlowSource from, String name, String type) {
        EvidenceLog.record(Evidence.REAL_PACKETS);
        HostNamespace asker = asker(from);
        List<String> argv = new ArrayList<>(List.of("dig", "+noall", "+comments", "+answer", "+time=1", "+tries=2"));
        if (asker.isNode()) {
            argv.add("@" + ClusterDns.of(dns, from.cluster()).orElseThrow().serviceAddress());
        }
        argv.addAll(List.of(name, type));
        CommandResult result = runner.execute(new Command(argv, "").inNamespace(asker.namespace()));
        if (!result.succeeded() || !result.stdout().contains("status: ")) {
            throw new AssertionError("dig " + name + " " + type + " in " + asker.namespace() + " got no answer from the cluster's DNS server (exit "
                    + result.exitCode() + "): " + (result.stdout() + result.stderr()).strip());
        }
        String status = result.stdout().replaceAll("(?s).*status: ([A-Z]+).*", "$1");
        if (status.equals("NXDOMAIN")) {
            return Optional.empty();
        }
        if (!status.equals("NOERROR")) {
            throw new AssertionError("the cluster's DNS server answered " + status + " for " + name + " " + type + "\n" + result.stdout());
        }
        List<String> data = new ArrayList<>();
        for (String line : result.stdout().lines().toList()) {
            String[] fields = line.strip().split("\\s+");
            // owner TTL class type data...; comments start with ';'
            if (!line.startsWith(";") && fields.length > 4 && fields[3].equals(type)) {
                data.add(String.join(" ", java.util.Arrays.asList(fields).subList(4, fields.length)));
            }
        }
        return Optional.of(data);
    }

    private HostNamespace asker(FlowSource from) {
        HostId id = switch (from) {
            case FlowSource.PodSource p -> {
                Pod pod = set.cluster(p.cluster()).flatMap(c -> c.pod(p.namespace(), p.pod()))
                        .orElseThrow(() -> new AssertionError("the cluster set has no pod " + from));
                yield pod.hostNetwork() ? HostId.node(p.cluster(), pod.node()) : HostId.pod(p.cluster(), pod.namespace(), pod.name());
            }
            case FlowSource.NodeSource n -> HostId.node(n.cluster(), n.node());
        };
        return layout.host(id).orElseThrow(() -> new AssertionError("the lab has no host " + id));
    }

    /** Read from the host's namespace as the agents read it, every layer. */
    @Override
    public DataplanePlan programmed(HostId host) {
        EvidenceLog.record(Evidence.KERNEL_STATE);
        HostNamespace namespace = layout.host(host).orElseThrow(() -> new AssertionError("the lab has no host " + host
                + "; hosts: " + plan.hosts().keySet()));
        Set<String> sysctlKeys = hostPlan(host).effective().sysctls().keySet();
        try (NamespaceThread thread = NamespaceThread.enter(namespace.namespace())) {
            NamespaceCommandRunner runner = new NamespaceCommandRunner(thread);
            DataplanePlan kernel = new DataplaneReader(runner).readAll().plan();
            // The reader leaves sysctls out of a full read; the ones the plan sets are read one by one.
            Map<String, String> sysctls = sysctlKeys.isEmpty() ? Map.of()
                    : SysctlCommands.parse(runner.run(SysctlCommands.read(sysctlKeys)).stdout());
            return new DataplanePlan(kernel.netfilter(), kernel.ipsets(), kernel.vxlanDevices(), kernel.fdb(), kernel.neighbours(),
                    kernel.nexthops(), kernel.nexthopGroups(), kernel.routes(), kernel.rules(), sysctls, kernel.wireGuardDevices(),
                    kernel.ipsecConnections());
        }
    }

    @Override
    public void addForeignRule(HostId host, Table table, String chain, String rule) {
        EvidenceLog.record(Evidence.KERNEL_STATE);
        List<String> argv = new ArrayList<>(List.of("iptables", "-w", "-t", table.iptablesName(), "-A", chain));
        argv.addAll(java.util.Arrays.asList(rule.split(" ")));
        CommandResult result = runner.execute(new Command(argv, "").inNamespace(namespace(host)));
        if (!result.succeeded()) {
            throw new AssertionError("cannot add '" + rule + "' to " + chain + " on " + host + ": " + result.stderr().strip());
        }
    }

    /** iptables-save of the host's table, the rule looked up as it prints it. */
    @Override
    public boolean keepsForeignRule(HostId host, DataplanePlan before, Table table, String chain, String rule) {
        EvidenceLog.record(Evidence.KERNEL_STATE);
        CommandResult saved = runner.execute(Command.of("iptables-save", "-t", table.iptablesName()).inNamespace(namespace(host)));
        if (!saved.succeeded()) {
            throw new AssertionError("iptables-save failed on " + host + ": " + saved.stderr().strip());
        }
        return saved.stdout().lines().anyMatch(line -> line.equals("-A " + chain + " " + rule));
    }

    private String namespace(HostId host) {
        return layout.host(host).orElseThrow(() -> new AssertionError("the lab has no host " + host)).namespace();
    }

    @Override
    public List<Interface> interfaces(HostId host) {
        if (onOvn(host.cluster())) {
            return kernelInterfaces(host);
        }
        // The plan's interfaces, which lab up creates; not read back.
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return hostPlan(host).interfaces();
    }

    /**
     * On an OVN-Kubernetes cluster, where OVS makes the ports and the agents br-submariner's, the
     * plan's interfaces as the host's kernel has them ({@code ip -4 -j addr}): their addresses and
     * MACs read back, and an interface the kernel lacks left out.
     */
    private List<Interface> kernelInterfaces(HostId host) {
        EvidenceLog.record(Evidence.KERNEL_STATE);
        String shown = runner.run(Command.of("ip", "-j", "addr", "show").inNamespace(namespace(host))).stdout();
        com.fasterxml.jackson.databind.JsonNode links;
        try {
            links = new com.fasterxml.jackson.databind.ObjectMapper().readTree(shown);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("ip -j addr printed no JSON in " + namespace(host), e);
        }
        List<Interface> found = new ArrayList<>();
        for (Interface planned : hostPlan(host).interfaces()) {
            for (com.fasterxml.jackson.databind.JsonNode link : links) {
                if (!link.path("ifname").asText().equals(planned.name())) {
                    continue;
                }
                List<Ipv4Address> addresses = new ArrayList<>();
                for (com.fasterxml.jackson.databind.JsonNode address : link.path("addr_info")) {
                    if (address.path("family").asText().equals("inet")) {
                        addresses.add(Ipv4Address.parse(address.path("local").asText()));
                    }
                }
                found.add(new Interface(planned.name(), addresses.stream().distinct().toList(),
                        io.periscope.plan.link.MacAddress.parse(link.path("address").asText()), planned.segment(), link.path("mtu").asInt()));
            }
        }
        return found;
    }

    private HostPlan hostPlan(HostId host) {
        return plan.host(host).orElseThrow(() -> new AssertionError("the lab has no host " + host + "; hosts: " + plan.hosts().keySet()));
    }

    /**
     * The planner's allocations as the agents programmed them: each address read back from the
     * netfilter rules of the cluster's nodes ({@link KernelGlobalIps}); statuses, free counts and
     * what no rule carries stay the plan's.
     */
    @Override
    public GlobalnetAllocations allocations() {
        return globalIps(kernelOfNodes()).allocations();
    }

    private KernelGlobalIps.Answer globalIps(Map<HostId, DataplanePlan> kernel) {
        GlobalnetAllocations model = plan.allocations();
        if (model.clusters().isEmpty()) {
            // Globalnet off: nothing to look for, and nothing allocated.
            EvidenceLog.record(Evidence.MODEL_ONLY);
            return new KernelGlobalIps.Answer(model, List.of("Globalnet is off"));
        }
        Map<HostId, List<String>> planned = new java.util.LinkedHashMap<>();
        Map<HostId, List<String>> read = new java.util.LinkedHashMap<>();
        kernel.forEach((host, programmed) -> {
            planned.put(host, KernelGlobalIps.lines(hostPlan(host).effective()));
            read.put(host, KernelGlobalIps.lines(programmed));
        });
        KernelGlobalIps.Answer answer = KernelGlobalIps.read(model, planned, read);
        recordModelParts(answer.fromModel());
        return answer;
    }

    /** Statuses, status messages and free counts are the plan's: the kernels hold addresses only. */
    @Override
    public void readsAllocationStatuses() {
        EvidenceLog.record(Evidence.MODEL_ONLY);
    }

    /** Each Endpoint as the other clusters' gateways' cables and its own gateway's Globalnet rules show it ({@link KernelEndpoints}). */
    @Override
    public List<Endpoint> endpoints() {
        Map<HostId, DataplanePlan> kernel = kernelOfNodes();
        KernelGlobalIps.Answer allocated = globalIps(kernel);
        KernelEndpoints.Answer answer = KernelEndpoints.read(plan.endpoints(), plannedTunnels(), kernelTunnels(kernel), plan.allocations(),
                allocated.allocations());
        recordModelParts(answer.fromModel());
        return answer.endpoints();
    }

    /** The pairs of clusters whose gateways hold cables to each other, by the driver the kernels show ({@link KernelTunnels}). */
    @Override
    public List<ClusterGraph.Connection> connections() {
        return kernelTunnels(kernelOfNodes()).connections(ClusterGraph.of(plan.clusterSet()).connections());
    }

    /** Every node's namespace read back, every layer (the answers above come from these). */
    private Map<HostId, DataplanePlan> kernelOfNodes() {
        Map<HostId, DataplanePlan> kernel = new java.util.LinkedHashMap<>();
        for (HostNamespace node : layout.nodes()) {
            kernel.put(node.host(), programmed(node.host()));
        }
        return kernel;
    }

    /** A part of an answer that no kernel showed is the model's, and is recorded as such next to the kernel's. */
    private static void recordModelParts(List<String> fromModel) {
        if (!fromModel.isEmpty()) {
            EvidenceLog.record(Evidence.MODEL_ONLY);
        }
    }

    private KernelTunnels kernelTunnels(Map<HostId, DataplanePlan> kernel) {
        Map<HostId, List<io.periscope.plan.link.FdbEntry>> fdb = new java.util.LinkedHashMap<>();
        Map<HostId, List<Ipv4Address>> wireGuard = new java.util.LinkedHashMap<>();
        Map<String, io.periscope.lab.state.WireGuardProcess> daemons = new java.util.HashMap<>();
        stateFile.read(layout.names().hash()).ifPresent(state -> state.wireGuard().forEach(d -> daemons.put(d.namespace(), d)));
        io.periscope.lab.wireguard.WireGuardCounterReader reader = new io.periscope.lab.wireguard.WireGuardCounterReader(runner);
        for (HostNamespace node : layout.nodes()) {
            HostPlan planned = hostPlan(node.host());
            if (planned.role() != HostPlan.HostRole.GATEWAY) {
                continue;
            }
            fdb.put(node.host(), kernel.get(node.host()).fdb());
            List<Ipv4Address> peers = new ArrayList<>();
            for (io.periscope.plan.cable.WireGuardDevice device : planned.submariner().wireGuardDevices()) {
                io.periscope.lab.state.WireGuardProcess daemon = daemons.get(node.namespace());
                if (daemon == null) {
                    throw new AssertionError("the lab runs no wireguard-go in " + node.namespace() + " for the device " + device.name()
                            + " that the plan gives " + node.host());
                }
                reader.read(daemon, device.name()).ifPresent(counters -> counters.peers().forEach(peer -> peer.endpoint()
                        .ifPresent(endpoint -> peers.add(Ipv4Address.parse(endpoint.substring(0, endpoint.lastIndexOf(':')))))));
            }
            wireGuard.put(node.host(), peers);
        }
        return KernelTunnels.of(set, fdb, wireGuard);
    }

    /** The cables the plan gives the gateways, to tell a cable the kernel lacks from one nobody planned. */
    private KernelTunnels plannedTunnels() {
        Map<HostId, List<io.periscope.plan.link.FdbEntry>> fdb = new java.util.LinkedHashMap<>();
        Map<HostId, List<Ipv4Address>> wireGuard = new java.util.LinkedHashMap<>();
        plan.hosts().values().stream().filter(h -> h.role() == HostPlan.HostRole.GATEWAY).forEach(host -> {
            fdb.put(host.id(), host.effective().fdb());
            wireGuard.put(host.id(), host.submariner().wireGuardDevices().stream()
                    .flatMap(d -> d.peers().stream().map(io.periscope.plan.cable.WireGuardPeer::endpointAddress)).toList());
        });
        return KernelTunnels.of(set, fdb, wireGuard);
    }

    /**
     * {@code lab failover} on this lab: the supervisor's agents run with health checking, the node is blackholed through {@link io.periscope.lab.failover.LabFailure}
     * while real streams run, the agents of its peers withdraw it, and it is healed after
     * {@link GatewayFailover#FAILED_FOR}; an {@code After} hook heals whatever a failed step left failed.
     */
    @Override
    public GatewayFailover failover(Flow udp, int streams, Flow tcpFlow, int tcp, String node) {
        EvidenceLog.record(Evidence.REAL_PACKETS);
        ClusterSet measured = set.withFlows(List.of(new Flow("failover-udp", udp.from(), udp.to(), udp.protocol(), udp.expect()),
                new Flow("failover-tcp", tcpFlow.from(), tcpFlow.to(), tcpFlow.protocol(), tcpFlow.expect())));
        UpLab lab = UpLab.of(file, measured, stateFile, "acceptance");
        FailoverReport report = new LabFailover(runner, new SimulatorFailover()).run(lab,
                new LabFailover.Options(node, FailureMode.BLACKHOLE, streams, GatewayFailover.RATE, tcp,
                Optional.of(GatewayFailover.FAILED_FOR)), line -> { });
        return GatewayFailover.measured(node, report);
    }

    /**
     * Real echo requests from the source's namespace, 10 ms apart: each reply's round trip as ping
     * prints it, and the requests that got none.
     */
    @Override
    public RoundTrips pings(Flow flow, int count) {
        EvidenceLog.record(Evidence.REAL_PACKETS);
        Ipv4Address destination;
        try {
            destination = simulator.resolver().resolve(flow).destination();
        } catch (FlowResolutionException e) {
            throw new AssertionError("the flow does not resolve: " + e.getMessage(), e);
        }
        HostNamespace source = asker(flow.from());
        // -W: a reply may wait out every delay on the way; -i 0.01 needs root, which the lab has.
        CommandResult result = runner.execute(Command.of("ping", "-n", "-c", Integer.toString(count), "-i", "0.01", "-W", "3",
                destination.toString()).inNamespace(source.namespace()));
        java.util.Map<Integer, Double> replies = new java.util.TreeMap<>();
        java.util.regex.Matcher reply = java.util.regex.Pattern.compile("icmp_seq=(\\d+) .*time=([0-9.]+) ms").matcher(result.stdout());
        while (reply.find()) {
            replies.putIfAbsent(Integer.parseInt(reply.group(1)), Double.parseDouble(reply.group(2)));
        }
        if (replies.isEmpty()) {
            throw new AssertionError("no echo request of " + flow.name() + " from " + source.namespace() + " to " + destination
                    + " got a reply (exit " + result.exitCode() + "): " + (result.stdout() + result.stderr()).strip());
        }
        List<Double> times = replies.values().stream().sorted().toList();
        return new RoundTrips(count, 1 - replies.size() / (double) count, percentile(times, 50), percentile(times, 5), percentile(times, 95),
                true);
    }

    /** {@code ping -l}: every request sent before the first answer is waited for. */
    @Override
    public int burst(Flow flow, int count, int size) {
        EvidenceLog.record(Evidence.REAL_PACKETS);
        Ipv4Address destination;
        try {
            destination = simulator.resolver().resolve(flow).destination();
        } catch (FlowResolutionException e) {
            throw new AssertionError("the flow does not resolve: " + e.getMessage(), e);
        }
        HostNamespace source = asker(flow.from());
        CommandResult result = runner.execute(Command.of("ping", "-q", "-n", "-c", Integer.toString(count), "-l", Integer.toString(count),
                "-s", Integer.toString(size), "-W", "3", destination.toString()).inNamespace(source.namespace()));
        java.util.regex.Matcher counts = java.util.regex.Pattern.compile("(\\d+) packets transmitted, (\\d+) received").matcher(result.stdout());
        if (!counts.find()) {
            throw new AssertionError("ping printed no summary (exit " + result.exitCode() + "): " + (result.stdout() + result.stderr()).strip());
        }
        return Integer.parseInt(counts.group(2));
    }

    private static double percentile(List<Double> sorted, int percent) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(percent / 100.0 * sorted.size())));
    }

    /** {@code lab bench} on this lab with the one flow: iperf3's receivers' rates added up, and the gateway each connection left by. */
    @Override
    public Throughput connections(Flow flow, int connections, int seconds) {
        EvidenceLog.record(Evidence.REAL_PACKETS);
        ClusterSet measured = set.withFlows(List.of(new Flow("bench", flow.from(), flow.to(), flow.protocol(), flow.expect())));
        UpLab lab = UpLab.of(file, measured, stateFile, "acceptance");
        BenchReport report = new LabBench(runner, new SimulatorBench()).run(lab, new LabBench.Options(connections, seconds), line -> { });
        // Not every stream's gateways are checked against the prediction here: on a shaped link TCP
        // retransmits after a timeout, and the kernel then draws the socket a new hash
        // (sk_rethink_txhash), which can move the connection to another gateway mid-run. What the
        // scenarios state is the aggregate and how many gateways carried connections.
        if (report.totals().flowsThatMovedBytes() != report.totals().flows()) {
            throw new AssertionError(report.totals().flows() - report.totals().flowsThatMovedBytes() + " of " + report.totals().flows()
                    + " connections moved no bytes: " + report.streams().stream().filter(r -> r.problem().isPresent())
                    .map(r -> r.id() + ": " + r.problem().get()).toList());
        }
        java.util.Map<String, Integer> byGateway = new java.util.TreeMap<>();
        String sourceCluster = flow.from().cluster();
        report.gateways().stream().filter(g -> g.cluster().equals(sourceCluster) && g.active())
                .forEach(g -> byGateway.put(g.gateway(), g.egressMeasured()));
        return new Throughput(report.totals().bitsPerSecond() / 1e6, byGateway, true);
    }
}
