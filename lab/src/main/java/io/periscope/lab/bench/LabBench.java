package io.periscope.lab.bench;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.failover.FailoverPrediction;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.SysctlSettings;
import io.periscope.lab.probe.FlowSimulation;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Names;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code lab bench FILE [--flows N] [--seconds S]}: N parallel TCP flows (iperf3) between the file's
 * pods across clusters, through a lab that is up (shaped links or not), measured and put next to the
 * simulator's prediction of the same flows.
 *
 * <p>The flows are spread round-robin over the pod pairs ({@link BenchPlan}); each pair runs one
 * iperf3 test with all its streams at once, each stream from a source port chosen beforehand, so
 * the simulator predicts each stream's gateways for its own 5-tuple before anything runs
 * ({@link BenchPrediction}). Around the tests, every gateway's WAN device counters (bytes each way)
 * are read before and after; while they run and once they ended, every gateway's connection table,
 * whose byte counters say which gateways carried each stream's forward bytes ({@link GatewayPassage};
 * why during, not only after: {@link ConnectionTables}), and the entries the kernel deleted
 * meanwhile, heard as it deleted them ({@link EndedConnections}). Connection accounting ({@value #ACCOUNTING}) is turned on in every
 * gateway's namespace before the connections start (only entries created while it is on count) and
 * set back to what it was once the tables are read. Connection entries an earlier run left with the
 * same tuples (either direction) are deleted first, on the gateways only, so that only this run's
 * connections are found.
 */
public final class LabBench {

    /** Per network namespace: whether new connection entries count each direction's packets and bytes. */
    static final String ACCOUNTING = "net.netfilter.nf_conntrack_acct";
    /** How often the gateways' connection tables are read while the clients run. */
    static final Duration TABLE_READING = Duration.ofSeconds(1);

    /**
     * @param flows   TCP streams, spread round-robin over the pod pairs
     * @param seconds how long each runs
     */
    public record Options(int flows, int seconds) {

        public Options {
            if (flows < 1 || flows > 1024) {
                throw new IllegalArgumentException("--flows must be between 1 and 1024, not " + flows);
            }
            if (seconds < 1 || seconds > 600) {
                throw new IllegalArgumentException("--seconds must be between 1 and 600, not " + seconds);
            }
        }
    }

    private final CommandRunner runner;
    private final BenchSimulation simulation;

    /** @param simulation the simulator's side, which the bench's streams are compared with */
    public LabBench(CommandRunner runner, BenchSimulation simulation) {
        this.runner = runner;
        this.simulation = simulation;
    }

    /**
     * @throws LabRefusal when a node of the lab is failed, when the file has no TCP flow between clusters that the
     *                    bench can run, when the flows do not fit the pairs, or when a server cannot listen
     */
    public BenchReport run(UpLab lab, Options options, Consumer<String> progress) {
        if (!lab.current().failures().isEmpty()) {
            String failed = lab.current().failures().stream().map(f -> f.node() + " (" + f.mode() + ")").collect(Collectors.joining(", "));
            throw new LabRefusal(failed + " " + (lab.current().failures().size() == 1 ? "is" : "are") + " failed, and the bench predicts with"
                    + " every node up; heal first ('lab heal " + lab.file() + " " + lab.current().failures().getFirst().node() + "')");
        }
        FlowSimulation flows = simulation.flows(lab.plan());
        BenchPlan.Pairs found = BenchPlan.pairs(lab.set(), lab.layout(), flows, BenchPlan.FIRST_SOURCE_PORT);
        if (found.pairs().isEmpty()) {
            throw new LabRefusal(noPairs(lab, found));
        }
        List<BenchPlan.Pair> pairs = found.pairs();
        Set<Integer> serverPorts = pairs.stream().map(BenchPlan.Pair::serverPort).collect(Collectors.toCollection(TreeSet::new));
        List<BenchPlan.Stream> streams;
        try {
            streams = BenchPlan.streams(pairs.size(), options.flows(), BenchPlan.FIRST_SOURCE_PORT, serverPorts);
        } catch (IllegalArgumentException e) {
            throw new LabRefusal(e.getMessage());
        }
        List<FailoverPrediction.StreamFlow> flowsOfStreams = new ArrayList<>();
        for (BenchPlan.Stream stream : streams) {
            BenchPlan.Pair pair = pairs.get(stream.pair());
            flowsOfStreams.add(new FailoverPrediction.StreamFlow(stream.id(), pair.source(), pair.bind(), pair.destination(), pair.port(),
                    Protocol.TCP, stream.sourcePort()));
        }
        List<BenchPrediction.PredictedStream> predicted = simulation.streams(lab.plan(), FailoverPrediction.labSeeds(lab.layout()), flowsOfStreams);
        Map<String, HostNamespace> gateways = gateways(lab);

        found.skipped().forEach(s -> progress.accept("bench: flow " + s.flow() + " left out: " + s.reason()));
        progress.accept("bench: " + streams.size() + " TCP flow" + (streams.size() == 1 ? "" : "s") + " for " + options.seconds() + " s over "
                + pairs.size() + " pod pair" + (pairs.size() == 1 ? "" : "s") + "; iperf3 servers in " + pairs.size() + " namespace"
                + (pairs.size() == 1 ? "" : "s"));
        for (BenchPlan.Pair pair : pairs) {
            progress.accept("  " + pair.describe() + ", " + BenchPlan.of(streams, pair.index()).size() + " streams from ports "
                    + BenchPlan.ports(BenchPlan.of(streams, pair.index())));
        }
        Map<Integer, Iperf3Result> results;
        Map<String, LinkBytes> before;
        Map<String, LinkBytes> after;
        Map<String, List<ConntrackEntry>> tables;
        long started;
        long ended;
        Map<String, String> accounting = accountingOn(gateways);
        try (Iperf3Tests tests = new Iperf3Tests(runner)) {
            int forgotten = forgetEarlierConnections(gateways, pairs, streams);
            if (forgotten > 0) {
                progress.accept("bench: deleted " + forgotten + " connection entries an earlier run left on the gateways with these flows' tuples");
            }
            ConnectionTables seen = new ConnectionTables();
            // Listening from before the servers start, so that the listeners have joined when the first connection comes,
            // and after the leftovers' deletion, whose events are not this run's.
            try (EndedConnections deletions = EndedConnections.listen(runner, gateways, progress)) {
                tests.startServers(pairs, options.seconds());
                before = wanBytes(gateways);
                started = System.nanoTime();
                tests.startClients(pairs, streams, options.seconds());
                progress.accept("bench: running " + pairs.size() + " iperf3 client" + (pairs.size() == 1 ? "" : "s") + " for " + options.seconds() + " s");
                try (TableReadings readings = new TableReadings(() -> seen.add(connectionTables(gateways)))) {
                    results = tests.awaitClients(Duration.ofSeconds(options.seconds()).plus(Iperf3Tests.CLIENT_MARGIN));
                }
                ended = System.nanoTime();
                after = wanBytes(gateways);
                seen.add(connectionTables(gateways));
                seen.addEnded(deletions.stop(progress));
            }
            tables = seen.entries();
        } finally {
            restoreAccounting(gateways, accounting);
        }
        progress.accept("bench: done in " + (ended - started) / 1_000_000 + " ms; read " + gateways.size() + " gateways' counters and connection tables");
        return report(lab, options, found, streams, predicted, results, before, after, tables);
    }

    private static String noPairs(UpLab lab, BenchPlan.Pairs found) {
        if (found.skipped().isEmpty()) {
            return lab.file() + " has no TCP flow for the bench to run: it needs a flow with protocol: tcp from a pod of one cluster to a pod"
                    + " or exported service of another, under flows: (for example {name: client-to-nginx, from: cluster1/default/client,"
                    + " to: nginx.default.svc.clusterset.local:80, protocol: tcp})";
        }
        return lab.file() + " has no TCP flow the bench can run:\n" + found.skipped().stream().map(s -> "  " + s.flow() + ": " + s.reason())
                .collect(Collectors.joining("\n")) + "\nadd a TCP flow from a pod of one cluster to a pod or exported service of another";
    }

    /** Every gateway node of the lab, by {@code cluster/node}, in the file's order. */
    private static Map<String, HostNamespace> gateways(UpLab lab) {
        Map<String, HostNamespace> gateways = new LinkedHashMap<>();
        for (Cluster cluster : lab.set().clusters()) {
            for (Node node : cluster.gateways()) {
                lab.layout().host(HostId.node(cluster.name(), node.name())).ifPresent(h -> gateways.put(h.host().toString(), h));
            }
        }
        return gateways;
    }

    /** Turns connection accounting on in every gateway's namespace; the values it had, by gateway. */
    private Map<String, String> accountingOn(Map<String, HostNamespace> gateways) {
        Map<String, String> old = new LinkedHashMap<>();
        gateways.forEach((name, gateway) -> {
            old.put(name, runner.run(Command.of("sysctl", "-n", ACCOUNTING).inNamespace(gateway.namespace())).stdout().strip());
            runner.execute(Command.of("sysctl", "-q", "-w", ACCOUNTING + "=1").inNamespace(gateway.namespace()));
        });
        return old;
    }

    /** Sets accounting back: entries created while it was on keep their counters, so the tables are read first. */
    private void restoreAccounting(Map<String, HostNamespace> gateways, Map<String, String> old) {
        old.forEach((name, value) -> {
            if (!value.equals("1") && !value.isEmpty()) {
                runner.execute(Command.of("sysctl", "-q", "-w", ACCOUNTING + "=" + value).inNamespace(gateways.get(name).namespace()));
            }
        });
    }

    /**
     * Deletes, on every gateway, the connection entries that have one of the bench's flows' ports (the
     * destination port or the server's, and a stream's source port) in either direction: left by an
     * earlier run, they would say a stream crossed a gateway it did not cross this time. Any addresses,
     * for a remote gateway knows the connection by its SNATed source, and one its answers made by the
     * server pod's address.
     */
    private int forgetEarlierConnections(Map<String, HostNamespace> gateways, List<BenchPlan.Pair> pairs, List<BenchPlan.Stream> streams) {
        Set<String> tuples = new java.util.HashSet<>();
        for (BenchPlan.Stream stream : streams) {
            BenchPlan.Pair pair = pairs.get(stream.pair());
            tuples.add(pair.port() + "<" + stream.sourcePort());
            tuples.add(pair.serverPort() + "<" + stream.sourcePort());
        }
        int deleted = 0;
        for (HostNamespace gateway : gateways.values()) {
            for (ConntrackEntry entry : table(gateway)) {
                ConntrackEntry.Tuple o = entry.original();
                ConntrackEntry.Tuple r = entry.reply();
                if (!tuples.contains(o.dport() + "<" + o.sport()) && !tuples.contains(r.dport() + "<" + r.sport())) {
                    continue;
                }
                runner.execute(Command.of("conntrack", "-D", "-p", "tcp", "-s", o.src().toString(), "-d", o.dst().toString(),
                        "--sport", Integer.toString(o.sport()), "--dport", Integer.toString(o.dport())).inNamespace(gateway.namespace()));
                deleted++;
            }
        }
        return deleted;
    }

    private List<ConntrackEntry> table(HostNamespace gateway) {
        return ConntrackEntry.parse(runner.run(Command.of("conntrack", "-L", "-p", "tcp").inNamespace(gateway.namespace())).stdout());
    }

    /**
     * Reads the gateways' tables every {@link #TABLE_READING} while the clients run (see
     * {@link ConnectionTables} for why one reading after the run is not enough), on its own thread,
     * until closed. A reading that fails is left out: the one after the run still fails loudly.
     */
    private static final class TableReadings implements AutoCloseable {
        private final CountDownLatch stop = new CountDownLatch(1);
        private final Thread reader;

        TableReadings(Runnable reading) {
            reader = Thread.ofPlatform().daemon().name("bench-connection-tables").start(() -> {
                try {
                    while (!stop.await(TABLE_READING.toMillis(), TimeUnit.MILLISECONDS)) {
                        try {
                            reading.run();
                        } catch (RuntimeException e) {
                            // left out; see above
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        @Override
        public void close() {
            stop.countDown();
            try {
                reader.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Map<String, List<ConntrackEntry>> connectionTables(Map<String, HostNamespace> gateways) {
        Map<String, List<ConntrackEntry>> tables = new LinkedHashMap<>();
        gateways.forEach((name, gateway) -> tables.put(name, table(gateway)));
        return tables;
    }

    private Map<String, LinkBytes> wanBytes(Map<String, HostNamespace> gateways) {
        Map<String, LinkBytes> bytes = new LinkedHashMap<>();
        gateways.forEach((name, gateway) -> bytes.put(name,
                LinkBytes.parse(runner.run(Command.of("ip", "-j", "-s", "link", "show", "dev", Names.WAN).inNamespace(gateway.namespace())).stdout())));
        return bytes;
    }

    /** Puts the measurements and the prediction together; no I/O. */
    static BenchReport report(UpLab lab, Options options, BenchPlan.Pairs found, List<BenchPlan.Stream> streams,
                              List<BenchPrediction.PredictedStream> predicted, Map<Integer, Iperf3Result> results, Map<String, LinkBytes> before,
                              Map<String, LinkBytes> after, Map<String, List<ConntrackEntry>> tables) {
        return report(lab.set().name(), lab.plan(), options, found, streams, predicted, results, before, after, tables, basis());
    }

    static String basis() {
        return FailoverPrediction.seedsKnown()
                ? "each node's choice by the kernel's multipath hash under the seed lab up gave it; the one choice that follows a TCP"
                + " socket's own random hash (the first its packets meet, on the client's node, under l4 hashing) as each nexthop by its weight"
                : "this kernel has no " + SysctlSettings.MULTIPATH_HASH_SEED + ", so each node hashes with a random seed: the choices are"
                + " Periscope's documented hash, not the kernel's";
    }

    static BenchReport report(String topology, ClusterSetPlan plan, Options options, BenchPlan.Pairs found, List<BenchPlan.Stream> streams,
                              List<BenchPrediction.PredictedStream> predicted, Map<Integer, Iperf3Result> results, Map<String, LinkBytes> before,
                              Map<String, LinkBytes> after, Map<String, List<ConntrackEntry>> tables, String basis) {
        List<BenchPlan.Pair> pairs = found.pairs();
        double seconds = results.values().stream().mapToDouble(Iperf3Result::seconds).max().orElse(0);
        if (seconds <= 0) {
            seconds = options.seconds();
        }
        Map<String, String> clusterOf = new HashMap<>();
        tables.keySet().forEach(g -> clusterOf.put(g, g.substring(0, g.indexOf('/'))));
        List<BenchReport.StreamResult> rows = new ArrayList<>();
        List<String> differences = new ArrayList<>();
        for (BenchPlan.Stream stream : streams) {
            BenchPlan.Pair pair = pairs.get(stream.pair());
            Iperf3Result result = results.getOrDefault(stream.pair(), Iperf3Result.failed("its iperf3 client did not run"));
            Optional<Iperf3Result.Stream> measured = result.stream(stream.sourcePort());
            Optional<String> problem = measured.isPresent() && measured.get().receivedBytes() > 0 ? Optional.empty()
                    : Optional.of(result.error().orElse(measured.isPresent() ? "the server received nothing" : "iperf3 reported no stream from this port"));
            ConntrackEntry.Tuple sent = new ConntrackEntry.Tuple(pair.sentFrom(), pair.destination(), stream.sourcePort(), pair.port());
            GatewayPassage passage = GatewayPassage.of(sent, inCluster(tables, clusterOf, pair.source().cluster()),
                    inCluster(tables, clusterOf, pair.server().cluster()));
            BenchPrediction.PredictedStream prediction = predicted.get(stream.id());
            BenchReport.StreamResult row = new BenchReport.StreamResult(stream.id(), pair.flow(), pair.index(), stream.sourcePort(),
                    measured.map(Iperf3Result.Stream::receivedBytes).orElse(0L), measured.map(Iperf3Result.Stream::receivedBitsPerSecond).orElse(0.0),
                    measured.map(Iperf3Result.Stream::retransmits).orElse(0L), measured.map(Iperf3Result.Stream::meanRttMicros).orElse(0L),
                    passage, prediction, problem);
            rows.add(row);
            difference(row).ifPresent(differences::add);
        }
        List<BenchReport.GatewayResult> gatewayRows = gatewayRows(plan, rows, pairs, before, after, seconds);
        List<HashSpread.Spread> spread = spread(plan, rows, pairs);
        long bytes = rows.stream().mapToLong(BenchReport.StreamResult::bytes).sum();
        long wanSent = 0;
        for (String gateway : after.keySet()) {
            wanSent += after.get(gateway).minus(before.get(gateway)).sent();
        }
        double[] rates = rows.stream().mapToDouble(BenchReport.StreamResult::bitsPerSecond).toArray();
        BenchReport.Totals totals = new BenchReport.Totals(rows.size(), (int) rows.stream().filter(r -> r.bytes() > 0).count(), bytes,
                rows.stream().mapToDouble(BenchReport.StreamResult::bitsPerSecond).sum(), rates.length == 0 ? 0 : JainIndex.of(rates),
                rows.stream().mapToLong(BenchReport.StreamResult::retransmits).sum(), wanSent, bytes == 0 ? 0 : (double) wanSent / bytes);
        return new BenchReport(topology, options.seconds(), seconds, pairs, found.skipped(), rows, gatewayRows, spread, totals, basis, differences);
    }

    private static Map<String, List<ConntrackEntry>> inCluster(Map<String, List<ConntrackEntry>> tables, Map<String, String> clusterOf, String cluster) {
        Map<String, List<ConntrackEntry>> in = new LinkedHashMap<>();
        tables.forEach((gateway, entries) -> {
            if (clusterOf.get(gateway).equals(cluster)) {
                in.put(gateway, entries);
            }
        });
        return in;
    }

    static Optional<String> difference(BenchReport.StreamResult row) {
        String stream = "stream " + row.id() + " (" + row.flow() + ", port " + row.sourcePort() + "): ";
        if (row.problem().isPresent()) {
            return Optional.of(stream + "moved no bytes, where the simulator delivers it: " + row.problem().get());
        }
        if (row.measured().local().isEmpty() && row.measured().remote().isEmpty()) {
            return Optional.of(stream + "no gateway's connection table holds it; predicted " + row.predicted().describe());
        }
        if (!row.predicted().allows(row.measured())) {
            return Optional.of(stream + "took " + BenchReportText.measured(row.measured()) + ", predicted " + row.predicted().describe());
        }
        return Optional.empty();
    }

    static String text(Set<String> gateways) {
        return gateways.isEmpty() ? "none" : String.join("+", gateways);
    }

    /** The active gateways of every cluster, and any other gateway a stream crossed, with their counts and counters. */
    private static List<BenchReport.GatewayResult> gatewayRows(ClusterSetPlan plan, List<BenchReport.StreamResult> rows, List<BenchPlan.Pair> pairs,
                                                               Map<String, LinkBytes> before, Map<String, LinkBytes> after, double seconds) {
        List<BenchReport.GatewayResult> gatewayRows = new ArrayList<>();
        for (Cluster cluster : plan.clusterSet().clusters()) {
            List<String> active = cluster.activeGateways().stream().map(n -> cluster.name() + "/" + n.name()).toList();
            for (Node node : cluster.gateways()) {
                String gateway = cluster.name() + "/" + node.name();
                double egress = 0;
                double egressVariance = 0;
                double ingress = 0;
                double ingressVariance = 0;
                int egressMeasured = 0;
                int ingressMeasured = 0;
                for (BenchReport.StreamResult row : rows) {
                    double out = row.predicted().localChance(gateway);
                    double in = row.predicted().remoteChance(gateway);
                    egress += out;
                    egressVariance += out * (1 - out);
                    ingress += in;
                    ingressVariance += in * (1 - in);
                    // Once per side, at its main gateway, so that a side's counts add up to its flows.
                    egressMeasured += row.measured().mainLocal().filter(gateway::equals).isPresent() ? 1 : 0;
                    ingressMeasured += row.measured().mainRemote().filter(gateway::equals).isPresent() ? 1 : 0;
                }
                boolean isActive = active.contains(gateway);
                if (!isActive && egressMeasured + ingressMeasured == 0 && egress + ingress == 0) {
                    continue;
                }
                LinkBytes crossed = after.containsKey(gateway) && before.containsKey(gateway) ? after.get(gateway).minus(before.get(gateway))
                        : new LinkBytes(0, 0);
                gatewayRows.add(new BenchReport.GatewayResult(gateway, cluster.name(), isActive, egress, Math.sqrt(egressVariance), egressMeasured,
                        ingress, Math.sqrt(ingressVariance), ingressMeasured, crossed.sent(), crossed.received(), crossed.sent() * 8 / seconds,
                        crossed.received() * 8 / seconds));
            }
        }
        return gatewayRows;
    }

    /** The hash policy's statement per client cluster (egress) and per pair of clusters (ingress). */
    private static List<HashSpread.Spread> spread(ClusterSetPlan plan, List<BenchReport.StreamResult> rows, List<BenchPlan.Pair> pairs) {
        List<HashSpread.Spread> spread = new ArrayList<>();
        Map<String, List<BenchReport.StreamResult>> bySource = new LinkedHashMap<>();
        Map<String, List<BenchReport.StreamResult>> byClusters = new LinkedHashMap<>();
        for (BenchReport.StreamResult row : rows) {
            BenchPlan.Pair pair = pairs.get(row.pair());
            bySource.computeIfAbsent(pair.source().cluster(), c -> new ArrayList<>()).add(row);
            byClusters.computeIfAbsent(pair.source().cluster() + ">" + pair.server().cluster(), c -> new ArrayList<>()).add(row);
        }
        bySource.forEach((source, group) -> {
            String policy = policy(plan, source);
            List<String> gateways = activeGateways(plan, source);
            spread.add(HashSpread.of(source, "egress", source, policy, gateways, crossings(group, pairs, policy, gateways, true)));
        });
        byClusters.forEach((clusters, group) -> {
            String source = clusters.substring(0, clusters.indexOf('>'));
            String destination = clusters.substring(clusters.indexOf('>') + 1);
            String policy = policy(plan, source);
            List<String> gateways = activeGateways(plan, destination);
            spread.add(HashSpread.of(destination, "ingress", source, policy, gateways, crossings(group, pairs, policy, gateways, false)));
        });
        return spread;
    }

    private static List<HashSpread.Crossing> crossings(List<BenchReport.StreamResult> group, List<BenchPlan.Pair> pairs, String policy,
                                                       List<String> gateways, boolean egress) {
        List<HashSpread.Crossing> crossings = new ArrayList<>();
        for (BenchReport.StreamResult row : group) {
            BenchPlan.Pair pair = pairs.get(row.pair());
            String unit = HashSpread.perFlow(policy) ? "stream " + row.id() : pair.sentFrom() + ">" + pair.destination();
            Map<String, Double> chances = new LinkedHashMap<>();
            for (String gateway : gateways) {
                chances.put(gateway, egress ? row.predicted().localChance(gateway) : row.predicted().remoteChance(gateway));
            }
            Optional<String> main = egress ? row.measured().mainLocal() : row.measured().mainRemote();
            crossings.add(new HashSpread.Crossing(unit, chances, main.map(Set::of).orElse(Set.of())));
        }
        return crossings;
    }

    private static List<String> activeGateways(ClusterSetPlan plan, String cluster) {
        Cluster c = plan.clusterSet().requireCluster(cluster);
        return c.activeGateways().stream().map(n -> cluster + "/" + n.name()).toList();
    }

    /** The cluster's multipath hash policy as its nodes are programmed (every node of a cluster alike). */
    static String policy(ClusterSetPlan plan, String cluster) {
        Cluster c = plan.clusterSet().requireCluster(cluster);
        for (Node node : c.nodes()) {
            Optional<String> value = plan.host(HostId.node(cluster, node.name()))
                    .map(h -> h.effective().sysctls().get(BenchPrediction.MULTIPATH_HASH_POLICY));
            if (value.isPresent()) {
                return HashSpread.policyName(value.get());
            }
        }
        return HashSpread.policyName("0");
    }
}
