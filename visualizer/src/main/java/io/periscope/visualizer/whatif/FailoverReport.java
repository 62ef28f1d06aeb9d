package io.periscope.visualizer.whatif;

import io.periscope.model.topology.Disposition;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.TunnelGateways;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a gateway failure does to each flow: which gateways its delivered paths used before and
 * after, and whether it still works. Shared by {@code trace --fail} and the page's what-if view.
 */
public record FailoverReport(List<Line> lines) {

    /** @param why the first reason a path ends undelivered after the failure, empty when none */
    public record Line(String flow, Set<String> before, Set<String> after, int deliveredBefore, int deliveredAfter, int pathsAfter,
                Optional<String> why) {

        public String verdict() {
            if (deliveredAfter == 0) {
                return deliveredBefore == 0 ? "was already broken" : "BREAKS";
            }
            if (before.equals(after)) {
                return "unaffected";
            }
            return deliveredAfter < pathsAfter ? "moves, some paths break" : "moves to the remaining gateways";
        }
    }

    public static FailoverReport compare(List<FlowTrace> before, List<FlowTrace> after) {
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            FlowTrace b = before.get(i);
            FlowTrace a = after.get(i);
            Optional<String> why = a.paths().stream().filter(p -> p.disposition() != Disposition.DELIVERED)
                    .flatMap(p -> p.reason().stream()).findFirst();
            lines.add(new Line(a.name(), gateways(b), gateways(a), delivered(b), delivered(a), a.paths().size(), why));
        }
        return new FailoverReport(lines);
    }

    /** The gateways delivered paths cross (pods have three parts in their names, nodes two). */
    private static Set<String> gateways(FlowTrace trace) {
        return TunnelGateways.of(trace.paths());
    }

    private static int delivered(FlowTrace trace) {
        return (int) trace.paths().stream().filter(p -> p.disposition() == Disposition.DELIVERED).count();
    }

    public String toText() {
        StringBuilder text = new StringBuilder("failover:\n");
        for (Line line : lines) {
            text.append("  ").append(line.flow()).append(": ").append(line.verdict()).append('\n')
                    .append("    gateways before: ").append(join(line.before())).append('\n')
                    .append("    gateways after:  ").append(join(line.after()))
                    .append("  (").append(line.deliveredAfter()).append(" of ").append(line.pathsAfter()).append(" paths delivered)\n");
            if (line.deliveredAfter() < line.pathsAfter()) {
                line.why().ifPresent(why -> text.append("    why: ").append(why).append('\n'));
            }
        }
        return text.toString();
    }

    private static String join(Set<String> nodes) {
        return nodes.isEmpty() ? "none" : nodes.stream().collect(Collectors.joining(", "));
    }
}
