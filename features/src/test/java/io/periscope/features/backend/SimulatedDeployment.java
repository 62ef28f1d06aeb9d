package io.periscope.features.backend;

import io.periscope.dns.ClustersetZone;
import io.periscope.dns.DnsServer;
import io.periscope.dataplane.health.HealthSettings;
import io.periscope.lab.failover.FailoverLossWindow;
import io.periscope.lab.failover.FailoverPrediction;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.layout.SysctlSettings;
import io.periscope.lab.link.LinkPlan;
import io.periscope.lab.link.LinkTimings;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.spread.GatewaySpread;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.LinkFigures;
import io.periscope.simulator.trace.PathLinks;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Set;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A planned cluster set and its compiled simulator: the plan is what would be programmed, the traces what packets would do. */
record SimulatedDeployment(Simulator simulator) implements Deployment {

    private ClusterSetPlan plan() {
        return simulator.plan();
    }

    @Override
    public ClusterSet clusterSet() {
        return plan().clusterSet();
    }

    @Override
    public FlowTrace trace(Flow flow) throws FlowResolutionException {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return simulator.trace(flow);
    }

    /** The cable drivers whose encapsulation encrypts what it carries: WireGuard's data messages and IPsec's ESP. */
    private static final Set<Encapsulation> ENCRYPTING = EnumSet.of(Encapsulation.WIREGUARD, Encapsulation.ESP_IN_UDP, Encapsulation.ESP);

    /**
     * The simulator's own account, for it sends no bytes that could be looked at: at every crossing
     * between clusters the sending gateway wraps the packet in its cable driver's encapsulation, and
     * that driver is one that encrypts (WireGuard, ESP); and the receiving gateway unwraps that very
     * packet from the same encapsulation, so the packet crossed inside it and nowhere else. That the
     * driver's encryption hides the packet is the simulator's model of the driver, not an observation.
     */
    @Override
    public CableSecrecy secrecy(List<PathTrace> followed) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        List<CableCrossing> crossings = CableCrossing.of(followed);
        if (crossings.isEmpty()) {
            return new CableSecrecy.Contradicted("no followed path crosses from one cluster to another");
        }
        List<String> carried = new ArrayList<>();
        for (CableCrossing crossing : crossings) {
            String at = crossing.sender().node() + " -> " + crossing.receiver().node();
            if (crossing.encap().isEmpty()) {
                return new CableSecrecy.Contradicted("from " + at + " nothing wraps the packet: it crosses the WAN as it is");
            }
            Step.Encap encap = crossing.encap().get();
            if (!ENCRYPTING.contains(encap.encapsulation())) {
                return new CableSecrecy.Contradicted("from " + at + " the packet crosses in " + encap.encapsulation().jsonName()
                        + ", which does not encrypt");
            }
            Optional<Step.Decap> unwrapped = crossing.receiver().steps().stream().filter(Step.Decap.class::isInstance)
                    .map(Step.Decap.class::cast).filter(d -> d.encapsulation() == encap.encapsulation()).findFirst();
            if (unwrapped.isEmpty() || !sameFlow(unwrapped.get().packet(), crossing.inner())) {
                return new CableSecrecy.Contradicted("from " + at + " " + crossing.inner() + " goes into " + encap.encapsulation().jsonName()
                        + " but " + crossing.receiver().node() + " unwraps " + unwrapped.map(d -> d.packet().toString()).orElse("nothing")
                        + " from it");
            }
            carried.add(at + " inside " + encap.encapsulation().jsonName() + " (" + encap.device() + ")");
        }
        return new CableSecrecy.Shown("the simulator's account: " + String.join("; ", carried));
    }

    private static boolean sameFlow(Packet a, Packet b) {
        return a.src().equals(b.src()) && a.dst().equals(b.dst()) && a.protocol() == b.protocol() && a.sport() == b.sport()
                && a.dport() == b.dport();
    }

    @Override
    public Ipv4Address resolve(FlowSource from, String dnsName) throws FlowResolutionException {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return simulator.resolver().resolve("dns", from, new FlowTarget.DnsTarget(dnsName, 0), Protocol.ICMP).destination();
    }

    /** A real server for the asking pod's cluster, on 127.0.0.1 for the one question: the simulator runs no cluster to put it in. */
    @Override
    public Optional<List<String>> askDns(FlowSource from, String name, String type) {
        // A real DNS server, but answering from the plan on 127.0.0.1: no cluster holds it.
        EvidenceLog.record(Evidence.MODEL_ONLY);
        ClustersetZone zone = new ClustersetZone(Optional.of(from.cluster()), ServiceDiscovery.of(plan()));
        try (DnsServer server = DnsServer.start(new InetSocketAddress("127.0.0.1", 0), zone, 1)) {
            return JndiDnsQuestion.ask(server.address(), name, type);
        } catch (Exception e) {
            throw new AssertionError("cannot ask the DNS server of " + from.cluster() + " for " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public DataplanePlan programmed(HostId host) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return hostPlan(host).effective();
    }

    @Override
    public void addForeignRule(HostId host, Table table, String chain, String rule) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        // No kernel to add it to: keepsForeignRule works the rule's fate out. A host the plan lacks still fails here.
        hostPlan(host);
    }

    @Override
    public boolean keepsForeignRule(HostId host, DataplanePlan before, Table table, String chain, String rule) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return ForeignRuleOutcome.kept(before, hostPlan(host).submariner(), table, chain, rule);
    }

    @Override
    public List<Interface> interfaces(HostId host) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return hostPlan(host).interfaces();
    }

    private HostPlan hostPlan(HostId host) {
        return plan().host(host).orElseThrow(() -> new AssertionError("the plan has no host " + host
                + "; hosts: " + plan().hosts().keySet()));
    }

    @Override
    public List<io.periscope.plan.ovn.OvsBridge> ovsBridges(HostId node) {
        return ovnTopology(node.cluster()).map(t -> t.bridges().stream().filter(b -> b.node().equals(node.name())).toList()).orElse(List.of());
    }

    @Override
    public java.util.Optional<io.periscope.plan.ovn.OvnTopology> ovnTopology(String cluster) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return plan().ovn(cluster);
    }

    @Override
    public GlobalnetAllocations allocations() {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return plan().allocations();
    }

    @Override
    public List<Endpoint> endpoints() {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return plan().endpoints();
    }

    @Override
    public List<ClusterGraph.Connection> connections() {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        return ClusterGraph.of(clusterSet()).connections();
    }

    /**
     * The simulator's prediction, per flow: each node hashes with a seed of its own, as the lab's
     * nodes do (here one derived from the node's name); the failed gateway is withdrawn as the agents
     * withdraw it. What a stream loses is predicted from the health checking the lab's agents run
     * with these links ({@link FailoverLossWindow}): a stream that crossed the failed gateway loses
     * the datagrams it sends at {@link GatewayFailover#RATE} until the dead nexthop is withdrawn, the
     * expected window's worth; one that still crosses it while failed (nowhere else to go) loses the
     * whole failure; the others lose nothing, whichever live gateway takes them. Nothing is lost on
     * the heal: the returning gateway forwards before its nexthop is put back.
     */
    @Override
    public GatewayFailover failover(Flow udp, int streams, Flow tcpFlow, int tcp, String node) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        Map<HostId, Integer> seeds = new HashMap<>();
        plan().hosts().values().stream().filter(h -> h.role() != HostPlan.HostRole.POD)
                .forEach(h -> seeds.put(h.id(), (h.id().toString().hashCode() & 0x7fffffff) | 1));
        List<FailoverPrediction.StreamFlow> udpFlows = new ArrayList<>();
        List<FailoverPrediction.StreamFlow> tcpFlows = new ArrayList<>();
        try {
            ResolvedFlow u = simulator.resolver().resolve(udp);
            for (int i = 0; i < streams; i++) {
                udpFlows.add(new FailoverPrediction.StreamFlow(i, u.source(), u.sourceIp(), u.destination(), u.port(),
                        u.protocol(), FIRST_UDP_PORT + i));
            }
            ResolvedFlow t = simulator.resolver().resolve(tcpFlow);
            for (int j = 0; j < tcp; j++) {
                tcpFlows.add(new FailoverPrediction.StreamFlow(j, t.source(), t.sourceIp(), t.destination(), t.port(),
                        t.protocol(), FIRST_TCP_PORT + j));
            }
        } catch (FlowResolutionException e) {
            throw new AssertionError("the streams' flows do not resolve: " + e.getMessage(), e);
        }
        FailoverLossWindow window = FailoverLossWindow.of(LinkTimings.of(clusterSet()).health(HealthSettings.DEFAULTS));
        List<GatewayFailover.Stream> predicted = new SimulatorFailover().streams(plan(), seeds, udpFlows, node, true, true).stream()
                .map(p -> new GatewayFailover.Stream(p.id(), p.before(), p.during(), p.after(), lostOnFailure(p, node, window), 0))
                .toList();
        List<GatewayFailover.Connection> fates = new SimulatorFailover().connections(plan(), seeds, tcpFlows, node).stream()
                .map(c -> new GatewayFailover.Connection(c.id(), c.before(), c.during(), c.survives(), c.survives() ? "survived" : "reset"))
                .toList();
        return new GatewayFailover(node, predicted, fates);
    }

    /** The datagrams a stream sending at {@link GatewayFailover#RATE} loses when {@code failed} fails. */
    static int lostOnFailure(FailoverPrediction.PredictedStream stream, String failed, FailoverLossWindow window) {
        if (!stream.before().contains(failed)) {
            return 0;
        }
        if (stream.during().contains(failed)) {
            return (int) (GatewayFailover.RATE * GatewayFailover.FAILED_FOR.toMillis() / 1000);
        }
        return window.expectedPackets(GatewayFailover.RATE);
    }

    /**
     * What the links of the flow's paths add up to: the round trip and its jitter, and the chance that a
     * request or its reply is lost. Every path must agree (pings cannot say which path they took). The
     * simulator traces no echo reply, so a reply's links are those of the same ping sent back, from the
     * destination pod to the source.
     */
    @Override
    public RoundTrips pings(Flow flow, int count) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        LinkFigures forward = onlyFigures(flow, PathLinks::forward);
        LinkFigures reply = onlyFigures(backwards(flow), PathLinks::forward);
        double roundTrip = millis(forward.delay().plus(reply.delay()));
        double jitter = millis(forward.jitter().plus(reply.jitter()));
        double lost = 1 - (1 - forward.lossProbability()) * (1 - reply.lossProbability());
        return new RoundTrips(count, lost, roundTrip, roundTrip - jitter, roundTrip + jitter, false);
    }

    private LinkFigures onlyFigures(Flow flow, java.util.function.Function<PathLinks, LinkFigures> direction) {
        List<LinkFigures> figures = traceOrFail(flow).paths().stream()
                .map(p -> p.links().map(direction).orElseGet(() -> LinkFigures.of(List.of()))).toList();
        if (figures.isEmpty()) {
            throw new AssertionError("the flow " + flow.name() + " has no path");
        }
        if (figures.stream().map(f -> List.of(f.delay(), f.jitter(), f.lossProbability())).distinct().count() > 1) {
            throw new AssertionError("the paths of " + flow.name() + " cross links of different delays or losses, so one figure cannot"
                    + " describe its pings: " + figures);
        }
        return figures.getFirst();
    }

    private static Flow backwards(Flow flow) {
        if (!(flow.from() instanceof FlowSource.PodSource source) || !(flow.to() instanceof FlowTarget.PodTarget target)) {
            throw new AssertionError("pings are predicted between two pods; " + flow.from() + " -> " + flow.to() + " is not");
        }
        return new Flow(flow.name() + "-reply", new FlowSource.PodSource(target.cluster(), target.namespace(), target.pod()),
                new FlowTarget.PodTarget(source.cluster(), source.namespace(), source.pod(), 0), flow.protocol(), flow.expect());
    }

    @Override
    public int burst(Flow flow, int count, int size) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        LinkFigures forward = onlyFigures(flow, PathLinks::forward);
        return forward.crossed().stream().filter(c -> c.properties().rateBitsPerSecond().isPresent()).findFirst()
                .map(c -> Math.min(count, c.properties().queuePackets().orElse(LinkPlan.DEFAULT_QUEUE) + 1))
                .orElse(count);
    }

    /** The gateways the kernel's hash picks for evenly spread source ports, with the seeds {@code lab up} gives each node. */
    @Override
    public Throughput connections(Flow flow, int connections, int seconds) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        ResolvedFlow resolved;
        try {
            resolved = simulator.resolver().resolve(flow);
        } catch (FlowResolutionException e) {
            throw new AssertionError("the flow does not resolve: " + e.getMessage(), e);
        }
        GatewaySpread.Spread spread = GatewaySpread.of(plan(), resolved, GatewaySpread.ephemeralPorts(connections),
                SysctlSettings.multipathSeeds(LabLayout.of(plan())));
        Map<String, Integer> byGateway = new java.util.LinkedHashMap<>();
        spread.local().forEach(share -> byGateway.put(share.gateway().toString(), share.connections()));
        return new Throughput(spread.aggregate().orElse(0) / 1e6, byGateway, false);
    }

    private FlowTrace traceOrFail(Flow flow) {
        try {
            return simulator.trace(flow);
        } catch (FlowResolutionException e) {
            throw new AssertionError("the flow does not resolve: " + e.getMessage(), e);
        }
    }

    private static double millis(java.time.Duration duration) {
        return duration.toNanos() / 1e6;
    }

    private static final int FIRST_UDP_PORT = 42000;
    private static final int FIRST_TCP_PORT = 43000;
}
