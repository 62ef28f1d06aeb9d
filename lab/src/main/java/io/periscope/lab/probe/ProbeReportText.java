package io.periscope.lab.probe;

import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePath;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The probe's findings for people: per flow a summary, then each distinct path real packets took
 * (with the source ports that took it and the simulated path it matched), hop by hop in the trace
 * format: the host and its interfaces, the packet on arrival and on departure, the encapsulation.
 */
public final class ProbeReportText {

    private ProbeReportText() {
    }

    public static String render(ProbeReport report) {
        StringBuilder text = new StringBuilder();
        for (FlowProbeResult flow : report.flows()) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            render(flow, text);
        }
        text.append('\n').append("matchesSimulation: ").append(report.matchesSimulation()).append('\n');
        return text.toString();
    }

    private static void render(FlowProbeResult flow, StringBuilder text) {
        text.append("flow ").append(flow.name()).append(": ").append(flow.from()).append(" -> ").append(flow.to());
        if (!flow.resolved().isEmpty() && !flow.resolved().equals(flow.to())) {
            text.append(" (").append(flow.resolved()).append(')');
        }
        text.append('\n');
        text.append("  ").append(LabProbe.summary(flow)).append('\n');
        flow.dns().ifPresent(dns -> text.append("  dns: ").append(dns.name()).append(" asked in ").append(dns.asker()).append(": ")
                .append(NameResolution.describe(dns.observed())).append(dns.matches() ? ", as simulated" : ", simulated "
                        + dns.describeSimulated()).append(dns.sentTo().map(a -> "; packets sent to " + a).orElse("; nothing sent"))
                .append('\n'));
        text.append("  matchesSimulation: ").append(flow.matchesSimulation()).append('\n');
        flow.firstDifference().ifPresent(d -> text.append("  first difference: ").append(d.describe()).append('\n'));
        Map<String, List<ObservedAttempt>> byPath = new LinkedHashMap<>();
        for (ObservedAttempt attempt : flow.attempts()) {
            byPath.computeIfAbsent(attempt.observed().route() + "#" + attempt.match().simulatedPath() + "#" + attempt.match().matches(),
                    k -> new ArrayList<>()).add(attempt);
        }
        int n = 1;
        for (List<ObservedAttempt> same : byPath.values()) {
            ObservedAttempt first = same.getFirst();
            text.append("observed path ").append(n++).append(": ").append(first.observed().disposition());
            text.append(", ").append(same.size()).append(same.size() == 1 ? " probe" : " probes");
            if (first.outcome().sourcePort() != 0) {
                text.append(" (source ports ").append(same.stream().map(a -> String.valueOf(a.outcome().sourcePort()))
                        .reduce((a, b) -> a + ", " + b).orElse("")).append(')');
            }
            if (first.match().matches()) {
                text.append(", matches simulated path ").append(first.match().simulatedPath() + 1).append(" of ").append(first.simulated().size());
            } else {
                text.append(", differs from simulated path ").append(first.match().simulatedPath() + 1).append(": ")
                        .append(first.match().firstDifference().map(d -> d.describe()).orElse(""));
            }
            text.append('\n');
            first.outcome().problem().ifPresent(p -> text.append("  socket: ").append(p).append('\n'));
            path(first.observed(), text);
        }
    }

    static void path(TracePath path, StringBuilder text) {
        path.reason().ifPresent(r -> text.append("  reason: ").append(r).append('\n'));
        text.append("  forward\n");
        hops(path.forward(), text);
        if (!path.reply().isEmpty()) {
            text.append("  reply\n");
            hops(path.reply(), text);
        }
    }

    private static void hops(List<TraceHop> hops, StringBuilder text) {
        int i = 1;
        for (TraceHop hop : hops) {
            text.append("    ").append(i++).append(". ").append(hop.node());
            hop.in().ifPresent(in -> text.append("  in ").append(in));
            hop.out().ifPresent(out -> text.append("  out ").append(out));
            text.append('\n');
            text.append("       arrive  ").append(hop.arrive().endpoints()).append('\n');
            hop.encap().ifPresent(e -> text.append("       encap   ").append(e).append('\n'));
            hop.depart().ifPresent(d -> text.append("       depart  ").append(d.endpoints()).append('\n'));
        }
    }
}
