package io.periscope.benchmarks.lab;

import io.periscope.dataplane.election.LeaseTimings;
import io.periscope.lab.failover.FailoverReport;
import io.periscope.lab.failover.FailoverReportText;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailover;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.lab.failover.UpLab;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.HostId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code scripts/benchmark-failover}'s measurement. On a lab that is up, {@code lab failover} once per
 * failure mode, healed after a while; each run's result is appended to a results file as
 * tab-separated rows, one per group of streams (those of the surviving gateways, those of the failed
 * one). {@code --table} then prints every row of a run side by side: per topology and load-balancing
 * option, how many surviving streams moved against what the kernel's algorithm moves
 * ({@link HashThreshold}), the failed gateway's loss window against the anchors of issue 15, and
 * what the heal moved back and cost, with the TCP connections' fates judged after the heal.
 */
public final class FailoverBenchmark {

    /** Upstream's single active gateway: the lease must expire. */
    static final double LEASE_MILLIS = 15_000;
    /** Upstream's health checker: 1 s pings, down after 5 losses (and it only reports). */
    static final double HEALTH_CHECK_MILLIS = 5_000;
    /** BFD at 50 ms x 3. */
    static final double BFD_MILLIS = 150;

    private FailoverBenchmark() {
    }

    /**
     * {@code FailoverBenchmark FILE CLUSTER/NODE FLOWS RATE MODE[,MODE] HEAL_AFTER_S RESULTS LABEL}, or
     * {@code FailoverBenchmark --table RESULTS}.
     */
    public static void main(String[] args) throws TopologyException, IOException {
        if (args.length == 2 && args[0].equals("--table")) {
            System.out.print(table(Files.readAllLines(Path.of(args[1]))));
            return;
        }
        if (args.length != 8) {
            System.err.println("usage: FailoverBenchmark FILE CLUSTER/NODE FLOWS RATE MODE[,MODE...] HEAL_AFTER_S RESULTS LABEL"
                    + " | FailoverBenchmark --table RESULTS (run by scripts/benchmark-failover)");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        String node = args[1];
        int flows = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        List<FailureMode> modes = Arrays.stream(args[4].split(",")).map(FailureMode::parse).toList();
        Duration healAfter = Duration.ofSeconds(Long.parseLong(args[5]));
        Path results = Path.of(args[6]);
        String label = args[7];
        ClusterSet set = TopologyLoader.load(file);
        LabFailover failover = new LabFailover(ProcessCommandRunner.here(), new SimulatorFailover());
        for (FailureMode mode : modes) {
            UpLab lab = UpLab.of(file, set, new LabStateFile(), "failover");
            Optional<HashThreshold.Expectation> expected = expectation(lab, node);
            FailoverReport report = failover.run(lab, new LabFailover.Options(node, mode, flows, rate, 4, Optional.of(healAfter)),
                    line -> System.err.println("  " + line));
            System.out.println("--- " + label + ", " + mode + " ---");
            System.out.print(FailoverReportText.render(report).lines().filter(l -> !l.startsWith("  ") || l.contains("streams,")
                    || l.contains(" records, ") || l.contains("note:")).reduce("", (a, b) -> a + b + "\n"));
            String option = option(set, node);
            List<String> rows = List.of(
                    row(label, option, mode, "surviving", report.surviving(), expected.map(e -> fraction(e.movedFraction())).orElse("-"),
                            tcp(report, node, false), report.achievedRate()),
                    row(label, option, mode, "failed gw", report.moved(), "-", tcp(report, node, true), report.achievedRate()));
            Files.write(results, rows, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    /** The failed node's cluster's option, or that it has a single active gateway (a lease failover). */
    static String option(ClusterSet set, String node) {
        Cluster cluster = set.requireCluster(node.substring(0, node.indexOf('/')));
        return cluster.multiActiveGateways() ? cluster.loadBalancing().yamlName() : "single active (lease " + LeaseTimings.LAB.leaseDuration().toMillis() + " ms)";
    }

    /** The kernel's expectation on the node that spreads the failed gateway's cluster's traffic (its first non-gateway node that chooses). */
    static Optional<HashThreshold.Expectation> expectation(UpLab lab, String failed) {
        String clusterName = failed.substring(0, failed.indexOf('/'));
        Cluster cluster = lab.set().requireCluster(clusterName);
        for (Node node : cluster.nodes()) {
            if (!node.gateway()) {
                Optional<HashThreshold.Expectation> expectation = HashThreshold.of(lab.plan(), HostId.node(clusterName, node.name()), failed);
                if (expectation.isPresent()) {
                    return expectation;
                }
            }
        }
        return Optional.empty();
    }

    private static String tcp(FailoverReport report, String failed, boolean crossedFailed) {
        List<FailoverReport.TcpResult> group = report.tcp().stream().filter(t -> t.before().contains(failed) == crossedFailed).toList();
        if (group.isEmpty()) {
            return "-";
        }
        List<String> fates = new ArrayList<>();
        for (String fate : List.of("survived", "reset", "stalled")) {
            long count = group.stream().filter(t -> t.outcome().fate().equals(fate)).count();
            if (count > 0) {
                fates.add(count + " " + fate);
            }
        }
        long other = group.stream().filter(t -> !Set.of("survived", "reset", "stalled").contains(t.outcome().fate())).count();
        if (other > 0) {
            fates.add(other + " other");
        }
        return String.join(", ", fates);
    }

    private static String fraction(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static String row(String label, String option, FailureMode mode, String group, FailoverReport.Summary s, String expected, String tcp,
                              double achievedRate) {
        return String.join("\t", label, option, mode.text(), group, Integer.toString(s.streams()), Long.toString(s.lost()),
                String.format(Locale.ROOT, "%.1f", s.p50()), String.format(Locale.ROOT, "%.1f", s.p99()), String.format(Locale.ROOT, "%.1f", s.max()),
                Integer.toString(s.streamsThatMoved()), expected, Long.toString(s.lostOnHeal()), Integer.toString(s.streamsThatMovedBack()), tcp,
                String.format(Locale.ROOT, "%.0f", achievedRate));
    }

    /** The rows side by side, and the failed gateways' p99 windows against the anchors. */
    static String table(List<String> rows) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-22s %-28s %-10s %-9s %5s %6s %8s %8s %13s %9s  %9s %5s  %-22s %6s%n", "topology", "option", "mode", "streams",
                "count", "lost", "p50 ms", "p99 ms", "moved (frac)", "expected", "heal lost", "back", "tcp (judged after heal)", "pps"));
        StringBuilder anchors = new StringBuilder();
        for (String line : rows) {
            String[] f = line.split("\t", -1);
            if (f.length < 15) {
                continue;
            }
            int count = Integer.parseInt(f[4]);
            int moved = Integer.parseInt(f[9]);
            String movedText = moved + (count == 0 ? "" : String.format(Locale.ROOT, " (%.3f)", (double) moved / count));
            out.append(String.format(Locale.ROOT, "%-22s %-28s %-10s %-9s %5s %6s %8s %8s %13s %9s  %9s %5s  %-22s %6s%n", f[0], f[1], f[2], f[3],
                    f[4], f[5], f[6], f[7], movedText, f[10], f[11], f[12], f[13], f[14]));
            if (f[3].equals("failed gw") && count > 0) {
                double p99 = Double.parseDouble(f[7]);
                anchors.append(String.format(Locale.ROOT, "%-22s %-28s %-10s p99 %8.1f ms  /lease(15 s) %7.4f  /health check(5 s) %6.3f  /BFD(150 ms) %6.2f%n",
                        f[0], f[1], f[2], p99, p99 / LEASE_MILLIS, p99 / HEALTH_CHECK_MILLIS, p99 / BFD_MILLIS));
            }
        }
        return out + "\nthe failed gateway's streams against the anchors (below 1: faster):\n" + anchors;
    }
}
