package io.periscope.lab.bench;

import io.periscope.lab.failover.FailoverReport;
import io.periscope.lab.failover.FailoverReportText;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailover;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.shell.ProcessShell;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code scripts/benchmark-failover}'s measurement, on a lab that is up: {@code lab failover} once
 * per failure mode (crash, blackhole, agent-stop), each healed after a few seconds, then the loss
 * windows of the surviving and the failed gateway's streams next to the anchors of issue 15 as
 * ratios (below 1: faster than the anchor).
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

    /** {@code FailoverBenchmark FILE CLUSTER/NODE FLOWS RATE}. */
    public static void main(String[] args) throws TopologyException {
        Path file = Path.of(args[0]);
        String node = args[1];
        int flows = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        ClusterSet set = TopologyLoader.load(file);
        LabFailover failover = new LabFailover(new ProcessShell());
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%-11s %-10s %6s %7s %8s %8s %8s %6s  %8s %8s %8s  %8s %9s %6s%n", "mode", "streams", "count",
                "lost", "p50 ms", "p99 ms", "max ms", "moved", "/lease", "/health", "/BFD", "heal lost", "heal max", "back"));
        for (FailureMode mode : List.of(FailureMode.BLACKHOLE, FailureMode.CRASH, FailureMode.AGENT_STOP)) {
            UpLab lab = UpLab.of(file, set, new LabStateFile(), "failover");
            FailoverReport report = failover.run(lab, new LabFailover.Options(node, mode, flows, rate, 4, Optional.of(Duration.ofSeconds(4))),
                    line -> System.err.println("  " + line));
            System.out.println("--- " + mode + " ---");
            System.out.print(FailoverReportText.render(report).lines().filter(l -> !l.startsWith("  ") || l.contains("streams,")
                    || l.contains(" records, ") || l.contains("note:")).reduce("", (a, b) -> a + b + "\n"));
            table.append(row(mode, "surviving", report.surviving()));
            table.append(row(mode, "failed gw", report.moved()));
        }
        System.out.println();
        System.out.println("loss window on failure of " + node + ", " + flows + " streams at " + rate + " pps; ratios of the p99 window to the anchors"
                + " (upstream lease " + (long) LEASE_MILLIS + " ms, upstream health check " + (long) HEALTH_CHECK_MILLIS + " ms, BFD "
                + (long) BFD_MILLIS + " ms):");
        System.out.print(table);
    }

    private static String row(FailureMode mode, String group, FailoverReport.Summary s) {
        return String.format(Locale.ROOT, "%-11s %-10s %6d %7d %8.1f %8.1f %8.1f %6d  %8.4f %8.3f %8.2f  %8d %9.1f %6d%n", mode, group,
                s.streams(), s.lost(), s.p50(), s.p99(), s.max(), s.streamsThatMoved(), s.p99() / LEASE_MILLIS, s.p99() / HEALTH_CHECK_MILLIS,
                s.p99() / BFD_MILLIS, s.lostOnHeal(), s.maxHealWindow(), s.streamsThatMovedBack());
    }
}
