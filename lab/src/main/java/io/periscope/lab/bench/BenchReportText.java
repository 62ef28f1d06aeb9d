package io.periscope.lab.bench;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code lab bench}'s report for people: the pairs, a table per gateway (flows predicted and
 * measured each way, what its WAN device carried), the hash policy's statement, the flows one a line,
 * then the totals and the comparison with the simulator.
 */
public final class BenchReportText {

    private BenchReportText() {
    }

    public static String render(BenchReport report) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "bench of %s: %d TCP flow%s for %d s over %d pod pair%s (iperf3)%n", report.topology(),
                report.streams().size(), report.streams().size() == 1 ? "" : "s", report.seconds(), report.pairs().size(),
                report.pairs().size() == 1 ? "" : "s"));
        for (BenchPlan.Pair pair : report.pairs()) {
            List<BenchReport.StreamResult> own = report.streams().stream().filter(s -> s.pair() == pair.index()).toList();
            text.append("  ").append(pair.describe()).append(", ").append(own.size()).append(" stream").append(own.size() == 1 ? "" : "s")
                    .append(own.isEmpty() ? "" : " from ports " + ports(own)).append('\n');
        }
        report.skipped().forEach(s -> text.append("  left out: ").append(s.flow()).append(": ").append(s.reason()).append('\n'));

        text.append(String.format(Locale.ROOT, "%n%-24s %-7s %14s %14s %11s %11s%n", "gateway", "", "flows out", "flows in", "wan0 out", "wan0 in"));
        text.append(String.format(Locale.ROOT, "%-24s %-7s %9s %4s %9s %4s %11s %11s%n", "", "", "predicted", "meas", "predicted", "meas",
                "Mbit/s", "Mbit/s"));
        for (BenchReport.GatewayResult g : report.gateways()) {
            text.append(String.format(Locale.ROOT, "%-24s %-7s %9s %4s %9s %4s %11.1f %11.1f%n", g.gateway(), g.active() ? "active" : "standby",
                    count(g.egressPredicted(), g.egressSpread()), g.egressMeasured(), count(g.ingressPredicted(), g.ingressSpread()),
                    g.ingressMeasured(), g.wanSentBitsPerSecond() / 1e6, g.wanReceivedBitsPerSecond() / 1e6));
        }
        text.append("\nspread under the hash policy (binomial: n/k per gateway, sampling error sqrt(p (1-p) sum of the draws' flows squared), p = 1/k):\n");
        report.spread().forEach(s -> text.append("  ").append(s.describe()).append('\n'));

        int routeWidth = Math.max(26, report.streams().stream().mapToInt(s -> measured(s).length()).max().orElse(0));
        int flowWidth = Math.max(4, report.streams().stream().mapToInt(s -> s.flow().length()).max().orElse(0));
        String row = "%-4s %-" + flowWidth + "s %6s %10s %6s %8s  %-" + routeWidth + "s  %s%n";
        text.append(String.format(Locale.ROOT, "%n" + row, "id", "flow", "port", "Mbit/s", "retr", "rtt us", "gateways (main local > main remote)", "predicted"));
        for (BenchReport.StreamResult s : report.streams()) {
            text.append(String.format(Locale.ROOT, row, s.id(), s.flow(), s.sourcePort(), String.format(Locale.ROOT, "%.1f", s.bitsPerSecond() / 1e6),
                    s.retransmits(), s.meanRttMicros(), measured(s), predicted(s.predicted()) + (s.matchesPrediction() ? "" : "  DIFFERS")));
        }
        BenchReport.Totals t = report.totals();
        text.append(String.format(Locale.ROOT, "%naggregate: %.1f Mbit/s over %d flows (receiver side, %.2f s); %d of them moved bytes%n",
                t.bitsPerSecond() / 1e6, t.flows(), report.measuredSeconds(), t.flowsThatMovedBytes()));
        text.append(String.format(Locale.ROOT, "fairness (Jain's index over the flows' rates): %.3f%n", t.fairness()));
        text.append(String.format(Locale.ROOT, "retransmits: %d in all, %.1f per flow%n", t.retransmits(),
                t.flows() == 0 ? 0 : (double) t.retransmits() / t.flows()));
        text.append(String.format(Locale.ROOT, "wan0: the gateways sent %.1f MB for the flows' %.1f MB received (%.3f x)%n", t.wanSent() / 1e6,
                t.bytes() / 1e6, t.wanToPayload()));
        text.append("simulator (").append(report.basis()).append("): ");
        if (report.differences().isEmpty()) {
            text.append("every flow took a route the simulator predicts\n");
        } else {
            text.append(report.differences().size()).append(" difference").append(report.differences().size() == 1 ? "" : "s").append(":\n");
            report.differences().forEach(d -> text.append("  ").append(d).append('\n'));
        }
        return text.toString();
    }

    /** A predicted count: exact, or expected with its standard deviation when choices follow sockets' random hashes. */
    static String count(double expected, double spread) {
        if (expected == 0 && spread == 0) {
            return "-";
        }
        if (spread < 1e-9 && Math.abs(expected - Math.rint(expected)) < 1e-9) {
            return Long.toString(Math.round(expected));
        }
        return String.format(Locale.ROOT, "%.1f+-%.1f", expected, spread);
    }

    private static String measured(BenchReport.StreamResult s) {
        return measured(s.measured());
    }

    /** Each side's main gateway, then any other that carried forward bytes with its share: {@code c1/gw-1 +c1/gw-2 4% > c2/gw-3}. */
    static String measured(GatewayPassage passage) {
        return side(passage, passage.localBytes()) + " > " + side(passage, passage.remoteBytes());
    }

    private static String side(GatewayPassage passage, java.util.Map<String, Long> bytes) {
        if (bytes.isEmpty()) {
            return "none";
        }
        StringBuilder text = new StringBuilder();
        for (String gateway : bytes.keySet()) {
            if (text.isEmpty()) {
                text.append(gateway);
            } else {
                text.append(String.format(Locale.ROOT, " +%s %.0f%%", gateway, passage.share(gateway) * 100));
            }
        }
        return text.toString();
    }

    static String predicted(BenchPrediction.PredictedStream p) {
        if (p.routes().size() == 1) {
            return p.routes().getFirst().describe();
        }
        StringBuilder text = new StringBuilder();
        for (BenchPrediction.Route route : p.routes()) {
            text.append(text.isEmpty() ? "" : " or ").append(route.describe())
                    .append(String.format(Locale.ROOT, " (%.0f%%)", route.probability() * 100));
        }
        return text.toString();
    }

    private static String ports(List<BenchReport.StreamResult> streams) {
        int low = streams.stream().mapToInt(BenchReport.StreamResult::sourcePort).min().orElseThrow();
        int high = streams.stream().mapToInt(BenchReport.StreamResult::sourcePort).max().orElseThrow();
        return low == high ? Integer.toString(low) : low + "-" + high;
    }

    static String join(Set<String> gateways) {
        return LabBench.text(gateways);
    }
}
