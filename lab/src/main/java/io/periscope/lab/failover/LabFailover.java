package io.periscope.lab.failover;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.probe.ProbeTarget;
import io.periscope.lab.probe.FlowSimulation;
import io.periscope.lab.rollback.LabRollback;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.plan.HostPlan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code lab failover FILE --fail CLUSTER/NODE}: real packet streams through a running lab while one
 * of its nodes fails (and optionally heals), measured at the receivers (sequence numbers) and on the
 * gateways (counters), compared with the simulator's {@code --fail} prediction.
 *
 * <p>Timeline: the streams run {@link #WARM_UP} before the failure; the node fails; either it heals
 * after {@code healAfter} and the streams run on for the hold-down, until they have settled (at most
 * {@link #SETTLE_AFTER_HEAL_WITHIN}) and {@link #SETTLE} twice more, or
 * they run {@link #OBSERVE} more. Gateways are read from counters at the edges of each phase, away
 * from the failure and the heal so that a phase's gateways are the settled ones: the "during" phase
 * starts once the streams have settled where the simulator predicts them ({@link #settled}), and so
 * does the "after" phase, from the end of the hold-down; the "before" phase a fixed time after the
 * streams start.
 */
public final class LabFailover {

    static final Duration WARM_UP = Duration.ofSeconds(2);
    static final Duration SETTLE = Duration.ofSeconds(1);
    static final Duration OBSERVE = Duration.ofSeconds(4);
    /** The window in which every stream must cross its predicted gateways for the "during" phase to start. */
    static final Duration SETTLED_FOR = Duration.ofMillis(250);
    /** The shortest "during" phase: waiting for the streams to settle ends this long before the heal at the latest. */
    static final Duration SHORTEST_DURING = Duration.ofSeconds(1);
    static final Duration HOLD_DOWN = io.periscope.dataplane.health.HealthSettings.DEFAULTS.holdDown();
    /**
     * How long after the hold-down the "after" phase may wait for the streams to be back where the
     * simulator predicts: a fixed second was not enough for the production agents at a load of 29 on
     * 2 cores, whose route came back 3 to 4 s after their verdict (2026-12-01).
     */
    static final Duration SETTLE_AFTER_HEAL_WITHIN = Duration.ofSeconds(8);
    /** The progress line that marks the moment the node starts failing, followed by its {@code cluster/node}. */
    public static final String FAILING_NOW = "failover: failing now ";
    static final int FIRST_UDP_PORT = 42000;
    static final int FIRST_TCP_PORT = 43000;

    /**
     * @param flows     UDP streams
     * @param rate      datagrams per second per stream
     * @param tcp       long-lived TCP connections (over the file's TCP flows, when it has any)
     * @param healAfter heal the node this long after failing it (empty: leave it failed until the end, then heal)
     */
    public record Options(String fail, FailureMode mode, int flows, int rate, int tcp, Optional<Duration> healAfter) {

        public Options {
            if (flows < 1 || flows > 1000) {
                throw new IllegalArgumentException("--flows must be between 1 and 1000, not " + flows);
            }
            if (rate < 1 || rate > 10_000) {
                throw new IllegalArgumentException("--rate must be between 1 and 10000 packets per second, not " + rate);
            }
        }
    }

    private final CommandRunner runner;
    private final FailoverSimulation simulation;

    /** @param simulation the simulator's side, which the measured streams are compared with */
    public LabFailover(CommandRunner runner, FailoverSimulation simulation) {
        this.runner = runner;
        this.simulation = simulation;
    }

    public FailoverReport run(UpLab lab, Options options, Consumer<String> progress) {
        lab.requireSupervisor();
        return measure(lab, options, progress);
    }

    /**
     * The same measurement of a lab whose nodes are programmed by agents other than its supervisor's
     * (the production Kubernetes agents the acceptance suite runs on the lab's namespaces): the caller
     * vouches that agents with health checking run on every node. Only a blackhole can be had there,
     * since the other modes stop agents through the supervisor.
     */
    public FailoverReport runWithOtherAgents(UpLab lab, Options options, Consumer<String> progress) {
        if (options.mode() != FailureMode.BLACKHOLE) {
            throw new LabRefusal("only a blackhole fails a node whose agents the lab's supervisor does not run, not " + options.mode());
        }
        return measure(lab, options, progress);
    }

    private FailoverReport measure(UpLab lab, Options options, Consumer<String> progress) {
        HostNamespace failed = lab.node(options.fail());
        lab.current().failure(options.fail()).ifPresent(f -> {
            throw new LabRefusal(options.fail() + " is already failed (" + f.mode() + "); run 'lab heal " + lab.file() + " " + options.fail()
                    + "' first");
        });
        List<Flow> udpFlows = lab.set().flows().stream().filter(f -> f.protocol() == Protocol.UDP).toList();
        if (udpFlows.isEmpty()) {
            throw new LabRefusal(lab.file() + " has no flow with protocol: udp for the measured streams to follow; add one"
                    + " (for example to a UDP port of an exported service) under flows:");
        }
        FlowSimulation flows = simulation.flows(lab.plan());
        List<UdpStreams.Stream> streams = new ArrayList<>();
        // The streams whose simulated paths cross the failed node: for a worker (a stream's pod on it),
        // the ones its failure cuts; gateway counters cannot say, since the worker is no gateway.
        Set<Integer> throughFailed = new TreeSet<>();
        boolean failedGateway = lab.set().requireCluster(failed.host().cluster()).requireNode(failed.host().name()).gateway();
        List<ProbeTarget> targets = new ArrayList<>();
        Set<String> receiverNamespaces = new TreeSet<>();
        Set<Integer> receiverPorts = new TreeSet<>();
        for (int i = 0; i < options.flows(); i++) {
            Flow flow = udpFlows.get(i % udpFlows.size());
            ProbeTarget target = resolve(flows, flow);
            targets.add(target);
            HostNamespace source = lab.layout().host(target.source()).orElseThrow();
            int port = FIRST_UDP_PORT + i;
            streams.add(new UdpStreams.Stream(i, flow.name(), source.namespace(), sourceIp(target, source), port,
                    target.destination().toString(), target.port()));
            List<TracePath> paths = flows.paths(target, port);
            ends(lab, paths, receiverNamespaces, receiverPorts);
            if (paths.stream().anyMatch(path -> path.forward().stream().anyMatch(hop -> hop.node().equals(options.fail())))) {
                throughFailed.add(i);
            }
        }
        receiverPorts.addAll(streams.stream().map(UdpStreams.Stream::port).toList());
        List<TcpConnections.Connection> connections = new ArrayList<>();
        Set<String> tcpNamespaces = new TreeSet<>();
        Set<Integer> tcpPorts = new TreeSet<>();
        List<Flow> tcpFlows = lab.set().flows().stream().filter(f -> f.protocol() == Protocol.TCP).toList();
        for (int j = 0; j < options.tcp() && !tcpFlows.isEmpty(); j++) {
            Flow flow = tcpFlows.get(j % tcpFlows.size());
            ProbeTarget target = resolve(flows, flow);
            HostNamespace source = lab.layout().host(target.source()).orElseThrow();
            connections.add(new TcpConnections.Connection(j, flow.name(), source.namespace(), sourceIp(target, source),
                    target.destination().toString(), target.port()));
            tcpPorts.add(target.port());
            ends(lab, flows.paths(target, FIRST_TCP_PORT + j), tcpNamespaces, tcpPorts);
        }
        Map<String, String> gateways = new LinkedHashMap<>();
        // Every gateway node, the standbys of a single active gateway too: a lease failover moves the streams to one.
        lab.layout().nodes().stream().filter(n -> lab.set().requireCluster(n.host().cluster()).requireNode(n.host().name()).gateway())
                .forEach(n -> gateways.put(n.host().toString(), n.namespace()));

        // Before the streams start: the "during" phase begins once they are where this says (settled).
        List<FailoverPrediction.PredictedStream> predicted = predictedStreams(lab, streams, targets, options);
        Map<Integer, Set<String>> predictedDuring = new LinkedHashMap<>();
        Map<Integer, Set<String>> predictedAfter = new LinkedHashMap<>();
        predicted.forEach(p -> {
            predictedDuring.put(p.id(), p.during());
            predictedAfter.put(p.id(), p.after());
        });
        LabFailure failure = new LabFailure(runner);
        List<Map<String, long[]>> readings = new ArrayList<>();
        Map<String, long[]> connected;            // where the TCP connections' counts start
        Map<String, long[]> healed = null;        // right after the heal: the failed node forwards again
        int[] failSequence;
        int[] healSequence;
        double achievedRate;
        List<TcpConnections.Outcome> tcpOutcomes;
        Long healedAfter = null;
        UdpStreams udp = new UdpStreams(streams, options.rate());
        TcpConnections tcp = new TcpConnections(connections);
        GatewayCounters counters = new GatewayCounters(runner, gateways, streams);
        // Whatever ends the measurement (Ctrl-C, SIGTERM, a failure), the node is healed and the counters go.
        LabRollback rollback = LabRollback.arm(why -> restore(lab, options.fail(), failure, counters, why, progress), progress,
                "heal it with 'lab heal " + lab.file() + " " + options.fail() + "', or remove the lab with 'lab down " + lab.file() + "'");
        // The catch inside the try: a try-with-resources closes its resource before its own catch runs.
        try (rollback) {
            try {
                try (udp; tcp) {
                    rollback.run(counters::install);
                    udp.open(List.copyOf(receiverNamespaces), receiverPorts);
                    tcp.open(List.copyOf(tcpNamespaces), tcpPorts);
                    rollback.run(() -> counters.addTcp(connections, tcp.connectedPorts()));
                    connected = rollback.step(counters::read);
                    progress.accept("failover: " + streams.size() + " UDP streams at " + options.rate() + " pps each over " + udpFlows.size()
                            + " flow(s), " + connections.size() + " TCP connections; failing " + options.fail() + " (" + options.mode() + ") in "
                            + WARM_UP.toSeconds() + " s");
                    udp.start();
                    sleep(SETTLE);
                    readings.add(rollback.step(counters::read));
                    sleep(WARM_UP.minus(SETTLE));
                    readings.add(rollback.step(counters::read));
                    long failedAt = System.nanoTime();
                    failSequence = udp.sentSoFar();
                    // Before the failure, not after: 'lab fail' reports it once its programs have run, which on a loaded
                    // machine is after the peers' health checks already found the node dead.
                    progress.accept(FAILING_NOW + options.fail());
                    rollback.step(() -> failure.fail(lab, options.fail(), options.mode(), progress));
                    sleep(SETTLE);
                    Duration failedFor = options.healAfter().orElse(OBSERVE);
                    long lastStart = failedAt + failedFor.minus(SHORTEST_DURING).toNanos();
                    Map<String, long[]> first = rollback.step(counters::read);
                    readings.add(rollback.step(() -> settled(counters, first, predictedDuring, lastStart)));
                    sleep(failedFor.minus(Duration.ofNanos(System.nanoTime() - failedAt)));
                    readings.add(rollback.step(counters::read));
                    long healAt = System.nanoTime();
                    healSequence = udp.sentSoFar();
                    if (options.healAfter().isPresent()) {
                        rollback.step(() -> failure.heal(lab, options.fail(), progress));
                        healed = rollback.step(counters::read);
                        healedAfter = (healAt - failedAt) / 1_000_000;
                        sleep(HOLD_DOWN);
                        Map<String, long[]> afterHoldDown = rollback.step(counters::read);
                        long settleBy = System.nanoTime() + SETTLE_AFTER_HEAL_WITHIN.toNanos();
                        readings.add(rollback.step(() -> settled(counters, afterHoldDown, predictedAfter, settleBy)));
                        sleep(SETTLE.plus(SETTLE));
                        readings.add(rollback.step(counters::read));
                    }
                    tcpOutcomes = tcp.outcomes(1500);
                    achievedRate = udp.achievedRate();
                    udp.stop(Duration.ofMillis(300));
                }
                // Left failed until the end without --heal-after: healed now, as every failover ends.
                rollback.finish(() -> {
                    if (lab.current().failure(options.fail()).isPresent()) {
                        failure.heal(lab, options.fail(), progress);
                    }
                    counters.close();
                });
            } catch (RuntimeException e) {
                rollback.undoNow();
                throw e;
            }
        }
        List<FailoverReport.StreamResult> results = new ArrayList<>();
        List<String> workerDifferences = new ArrayList<>();
        for (UdpStreams.Stream stream : streams) {
            SequencedStream record = udp.record(stream.id());
            int sent = record.sent();
            int received = record.receivedCount(0, sent);
            int failedAtSequence = failSequence[stream.id()];
            int healedAtSequence = healSequence[stream.id()];
            int lostOnFailure = record.lost(failedAtSequence, healedAtSequence);
            double failureWindow = record.longestWindowMillis(failedAtSequence, healedAtSequence);
            int lostOnHeal = options.healAfter().isEmpty() ? 0 : record.lost(healedAtSequence, sent);
            double healWindow = options.healAfter().isEmpty() ? 0 : record.longestWindowMillis(healedAtSequence, sent);
            Set<String> before = GatewayCounters.crossed(readings.get(0), readings.get(1), stream.id());
            Set<String> during = GatewayCounters.crossed(readings.get(2), readings.get(3), stream.id());
            Set<String> after = readings.size() > 5 ? GatewayCounters.crossed(readings.get(4), readings.get(5), stream.id()) : Set.of();
            results.add(new FailoverReport.StreamResult(stream.id(), stream.flow(), stream.sourcePort(), sent, received, lostOnFailure,
                    failureWindow, lostOnHeal, healWindow, before, during, after));
            if (!failedGateway) {
                workerFailure(stream, throughFailed.contains(stream.id()), options, healedAtSequence - failedAtSequence, lostOnFailure)
                        .ifPresent(workerDifferences::add);
            }
        }
        List<FailoverReport.TcpResult> tcpResults = new ArrayList<>();
        // Every counted packet of a connection falls in one of its two windows: a connection's segments
        // carry its socket's random flow hash, which the nodes' multipath choice uses instead of the
        // 5-tuple and which the kernel draws anew on a retransmission timeout, so a connection of a
        // surviving gateway can move (and be reset) at any moment, the second after the failure
        // included, when the machine is busiest. "During" runs to the last reading, not to the end of the
        // streams' window while failed: a connection that lost its gateway sends only retransmissions,
        // spaced by its backoff (about 0.2, 0.6, 1.4 and 3 s after the failure), so the one that takes it
        // through another gateway can come after that window.
        Optional<String> swallowing = options.mode() == FailureMode.BLACKHOLE ? Optional.of(options.fail()) : Optional.empty();
        for (TcpConnections.Outcome outcome : tcpOutcomes) {
            int index = counters.tcpIndex(outcome.id());
            tcpResults.add(new FailoverReport.TcpResult(outcome, GatewayCounters.crossed(connected, readings.get(1), index),
                    GatewayCounters.carried(readings.get(1), Optional.ofNullable(healed), readings.getLast(), index, swallowing)));
        }
        FailoverReport.Prediction prediction = predict(predicted, options, results, workerDifferences);
        // A gateway's streams are the ones its counters saw before the failure; a worker's, the ones whose paths cross it.
        java.util.function.Predicate<FailoverReport.StreamResult> throughTheFailedNode = failedGateway
                ? r -> r.crossedFailed(options.fail()) : r -> throughFailed.contains(r.id());
        List<FailoverReport.StreamResult> surviving = results.stream().filter(throughTheFailedNode.negate()).toList();
        List<FailoverReport.StreamResult> moved = results.stream().filter(throughTheFailedNode).toList();
        return new FailoverReport(lab.set().name(), options.fail(), options.mode().text(), options.rate(), healedAfter, results,
                tcpResults, summary(surviving, options.fail()), summary(moved, options.fail()), prediction, udp.sendErrors(), achievedRate,
                failedGateway);
    }

    /**
     * The reading that starts the "during" (or "after") phase: the first, from {@code first} on, after
     * which every stream crossed exactly the gateways the simulator predicts for it in that phase, for
     * {@link #SETTLED_FOR}. A fixed time after the event was not enough: under load (the acceptance
     * suite at a load of 20 on 2 cores) the agents rerouted later, and each node's agents on their own,
     * so a reading could catch one node's streams moved and another's still on their way. A prediction
     * the agents never meet is still caught: the wait ends at {@code lastStart} (a second before the
     * heal; {@link #SETTLE_AFTER_HEAL_WITHIN} after the hold-down), and the phase then shows the
     * streams where they were.
     */
    private static Map<String, long[]> settled(GatewayCounters counters, Map<String, long[]> first, Map<Integer, Set<String>> predicted,
                                               long lastStart) {
        Map<String, long[]> earlier = first;
        while (System.nanoTime() + SETTLED_FOR.toNanos() <= lastStart) {
            sleep(SETTLED_FOR);
            Map<String, long[]> later = counters.read();
            Map<String, long[]> from = earlier;
            if (predicted.entrySet().stream().allMatch(e -> GatewayCounters.crossed(from, later, e.getKey()).equals(e.getValue()))) {
                return earlier;
            }
            earlier = later;
        }
        return earlier;
    }

    /** The undo of an unfinished failover: the node healed if the state still lists it failed, the counting tables removed. */
    private static void restore(UpLab lab, String node, LabFailure failure, GatewayCounters counters, String why, Consumer<String> progress) {
        boolean failed = lab.current().failure(node).isPresent();
        progress.accept("lab failover " + why + ": "
                + (failed ? "healing " + node + " and " : "") + "removing the gateways' counters");
        if (failed) {
            failure.heal(lab, node, progress);
        }
        counters.close();
    }

    /**
     * A failed worker is on no stream's gateways, so the gateways' comparison cannot see it: a crashed or
     * blackholed worker cuts exactly the streams whose simulated paths cross it (a pod of theirs runs on it),
     * and a worker whose agents alone stopped still forwards. A stream that fared otherwise is a difference.
     */
    static Optional<String> workerFailure(UdpStreams.Stream stream, boolean through, Options options, int sentWhileFailed, int lostWhileFailed) {
        if (sentWhileFailed <= 0) {
            return Optional.empty();
        }
        String name = "stream " + stream.id() + " (port " + stream.sourcePort() + "): ";
        boolean cut = through && options.mode() != FailureMode.AGENT_STOP;
        if (cut && lostWhileFailed < sentWhileFailed) {
            return Optional.of(name + "its path crosses the failed " + options.fail() + ", yet " + (sentWhileFailed - lostWhileFailed) + " of "
                    + sentWhileFailed + " datagrams sent while it was failed arrived");
        }
        if (!cut && lostWhileFailed == sentWhileFailed) {
            return Optional.of(name + (through ? options.fail() + " only had its agents stopped" : "its path does not cross " + options.fail())
                    + ", yet all " + sentWhileFailed + " datagrams sent while it was failed were lost");
        }
        return Optional.empty();
    }

    private static ProbeTarget resolve(FlowSimulation flows, Flow flow) {
        try {
            return flows.resolve(flow);
        } catch (IllegalArgumentException e) {
            throw new LabRefusal("flow " + flow.name() + " cannot be resolved: " + e.getMessage());
        }
    }

    /** A pod sends from its own address; a node leaves the choice to routing. */
    private static String sourceIp(ProbeTarget target, HostNamespace source) {
        return target.sourceIp().map(Object::toString).orElse("0.0.0.0");
    }

    /** Where the simulator delivers the flow: each delivered path's last host and port. */
    private static void ends(UpLab lab, List<TracePath> paths, Set<String> namespaces, Set<Integer> ports) {
        for (TracePath path : paths) {
            if (!path.disposition().equals("delivered") || path.forward().isEmpty()) {
                continue;
            }
            String host = path.forward().getLast().node();
            lab.layout().hosts().stream().filter(h -> h.host().toString().equals(host)).findFirst()
                    .ifPresent(h -> namespaces.add(h.namespace()));
            ports.add(path.forward().getLast().arrive().dport());
        }
        if (namespaces.isEmpty()) {
            throw new LabRefusal("the simulator delivers none of the flow's packets, so there is nowhere to receive the streams;"
                    + " check the flow with 'periscope trace " + lab.file() + "'");
        }
    }

    /** The simulator's gateways for each stream before, while and after the node is failed, as the agents would program them. */
    private List<FailoverPrediction.PredictedStream> predictedStreams(UpLab lab, List<UdpStreams.Stream> streams, List<ProbeTarget> targets,
                                                                      Options options) {
        List<FailoverPrediction.StreamFlow> flows = new ArrayList<>();
        for (UdpStreams.Stream stream : streams) {
            ProbeTarget target = targets.get(stream.id());
            flows.add(FailoverPrediction.StreamFlow.of(stream.id(), target, stream.sourcePort()));
        }
        return simulation.streams(lab.plan(), FailoverPrediction.labSeeds(lab.layout()), flows, options.fail(),
                options.mode() != FailureMode.AGENT_STOP, options.healAfter().isPresent());
    }

    /**
     * The simulator's prediction for every stream's own 5-tuple ({@link FailoverPrediction}), before,
     * during and after, compared phase by phase with what the counters measured.
     */
    private static FailoverReport.Prediction predict(List<FailoverPrediction.PredictedStream> predicted, Options options,
                                                     List<FailoverReport.StreamResult> results, List<String> workerDifferences) {
        boolean healed = options.healAfter().isPresent();
        Set<String> gatewaysBefore = new TreeSet<>();
        Set<String> gatewaysAfter = new TreeSet<>();
        predicted.forEach(p -> {
            gatewaysBefore.addAll(p.before());
            gatewaysAfter.addAll(p.during());
        });
        String basis = FailoverPrediction.seedsKnown()
                ? "each node's choice by the kernel's multipath hash under the seed lab up gave it"
                : "this kernel has no " + io.periscope.lab.layout.SysctlSettings.MULTIPATH_HASH_SEED
                + ", so each node hashes with a random seed: the choices are Periscope's documented hash, not the kernel's";
        List<String> differences = new ArrayList<>();
        for (FailoverReport.StreamResult result : results) {
            if (result.before().isEmpty()) {
                differences.add("stream " + result.id() + " (port " + result.sourcePort() + "): crossed no gateway before the failure");
            }
        }
        differences.addAll(FailoverPrediction.differences(predicted, results, healed));
        differences.addAll(workerDifferences);
        return new FailoverReport.Prediction(gatewaysBefore, gatewaysAfter, basis, predicted, differences);
    }

    static FailoverReport.Summary summary(List<FailoverReport.StreamResult> streams, String failedNode) {
        double[] windows = streams.stream().mapToDouble(FailoverReport.StreamResult::failureWindowMillis).sorted().toArray();
        long lost = streams.stream().mapToLong(FailoverReport.StreamResult::lostOnFailure).sum();
        int moved = (int) streams.stream().filter(FailoverReport.StreamResult::moved).count();
        long lostOnHeal = streams.stream().mapToLong(FailoverReport.StreamResult::lostOnHeal).sum();
        double healWindow = streams.stream().mapToDouble(FailoverReport.StreamResult::healWindowMillis).max().orElse(0);
        int movedBack = (int) streams.stream().filter(s -> s.after().contains(failedNode) && !s.during().contains(failedNode)).count();
        return new FailoverReport.Summary(streams.size(), lost, percentile(windows, 50), percentile(windows, 90), percentile(windows, 99),
                windows.length == 0 ? 0 : windows[windows.length - 1], moved, lostOnHeal, healWindow, movedBack);
    }

    static double percentile(double[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static void sleep(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return;
        }
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

}
