package io.periscope.lab.failover;

import java.util.Locale;
import java.util.Set;

/** {@code lab failover}'s report for people: one line per stream and connection, then the summary and the comparison. */
public final class FailoverReportText {

    private FailoverReportText() {
    }

    public static String render(FailoverReport report) {
        StringBuilder text = new StringBuilder();
        text.append("failover of ").append(report.failed()).append(" (").append(report.mode()).append(") in ").append(report.topology())
                .append(": ").append(report.streams().size()).append(" UDP streams at ").append(report.rate()).append(" pps")
                .append(report.healedAfterMillis() == null ? ", healed once the streams ended (no --heal-after)" : ", healed after " + report.healedAfterMillis() + " ms")
                .append('\n');
        text.append(String.format(Locale.ROOT, "  %-6s %-6s %8s %8s %6s %10s %6s %10s  %s%n", "stream", "port", "sent", "recvd", "lost",
                "window ms", "lost", "heal ms", "gateways before -> during -> after"));
        for (FailoverReport.StreamResult s : report.streams()) {
            text.append(String.format(Locale.ROOT, "  %-6d %-6d %8d %8d %6d %10.1f %6d %10.1f  %s -> %s -> %s%n", s.id(), s.sourcePort(), s.sent(),
                    s.received(), s.lostOnFailure(), s.failureWindowMillis(), s.lostOnHeal(), s.healWindowMillis(), join(s.before()),
                    join(s.during()), report.healedAfterMillis() == null ? "-" : join(s.after())));
        }
        if (!report.tcp().isEmpty()) {
            text.append("tcp connections:\n");
            for (FailoverReport.TcpResult t : report.tcp()) {
                TcpConnections.Outcome c = t.outcome();
                text.append(String.format(Locale.ROOT, "  %-3d port %-6d %-16s %7d records, longest silence %6d ms, via %s -> %s%s%n", c.id(),
                        c.sourcePort(), c.fate(), c.recordsArrived(), c.longestSilenceMillis(), join(t.before()), join(t.during()),
                        c.error().isEmpty() ? "" : " (" + c.error() + ")"));
            }
        }
        text.append("summary (loss window on failure, ms):\n");
        text.append(line(report.failedGateway() ? "surviving gateways' streams" : "streams not through it", report.surviving()));
        text.append(line(report.failedGateway() ? "failed gateway's streams" : "streams through the worker", report.moved()));
        if (report.achievedRate() < report.rate() * 0.95) {
            text.append(String.format(Locale.ROOT, "  note: the senders kept up %.0f of %d pps per stream on this machine; windows are measured in sending time%n",
                    report.achievedRate(), report.rate()));
        }
        if (report.sendErrors() > 0) {
            text.append("  ").append(report.sendErrors()).append(" datagrams could not be sent (counted as lost)\n");
        }
        FailoverReport.Prediction p = report.prediction();
        text.append("simulator, per stream (").append(p.basis()).append("): gateways ").append(join(p.failedGatewaysBefore()))
                .append(" -> ").append(join(p.gatewaysAfter())).append(", ").append(p.predictedToMove().size()).append(" of ")
                .append(p.streams().size()).append(" streams predicted to move; ");
        if (p.differences().isEmpty()) {
            text.append("every stream took the predicted gateways, before, during").append(report.healedAfterMillis() == null ? "" : " and after")
                    .append('\n');
        } else {
            text.append(p.differences().size()).append(" differences:\n");
            p.differences().forEach(d -> text.append("  ").append(d).append('\n'));
        }
        return text.toString();
    }

    private static String line(String what, FailoverReport.Summary s) {
        return String.format(Locale.ROOT, "  %-28s %3d streams, %6d lost, p50 %7.1f  p90 %7.1f  p99 %7.1f  max %7.1f; %d changed gateway;"
                        + " on heal %d lost (longest %.1f ms), %d moved back%n",
                what, s.streams(), s.lost(), s.p50(), s.p90(), s.p99(), s.max(), s.streamsThatMoved(), s.lostOnHeal(), s.maxHealWindow(),
                s.streamsThatMovedBack());
    }

    private static String join(Set<String> gateways) {
        return gateways.isEmpty() ? "none" : String.join("+", gateways);
    }
}
