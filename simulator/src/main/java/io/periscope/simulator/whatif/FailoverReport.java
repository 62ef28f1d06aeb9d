package io.periscope.simulator.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.Disposition;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.TunnelGateways;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a node failure does to each flow: which gateways its delivered paths crossed before and
 * after, and whether it keeps them, moves, breaks or was broken already. Behind {@code trace --fail},
 * {@code check --fail} and the page's what-if view.
 */
public record FailoverReport(List<Line> lines) {

    public FailoverReport {
        lines = List.copyOf(lines);
    }

    /** What becomes of a flow, from how many of its paths are delivered and through which gateways. */
    public enum Change {
        /** Delivered before and after, through the same gateways. */
        KEEPS("keeps"),
        /** Delivered after, through other gateways (or only some of its paths). */
        MOVES("moves"),
        /** Delivered before, nothing delivered after. */
        BREAKS("breaks"),
        /** Nothing delivered before nor after: the failure is not why it does not work. */
        STILL_BROKEN("still-broken"),
        /** Nothing delivered before, delivered after: the failed node was in its way. */
        WORKS_NOW("works-now");

        private final String jsonName;

        Change(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    /** @param why the first reason a path ends undelivered after the failure, empty when none */
    public record Line(String flow, Set<String> before, Set<String> after, int deliveredBefore, int deliveredAfter, int pathsAfter,
                Optional<String> why) {

        public Change change() {
            if (deliveredAfter == 0) {
                return deliveredBefore == 0 ? Change.STILL_BROKEN : Change.BREAKS;
            }
            if (deliveredBefore == 0) {
                return Change.WORKS_NOW;
            }
            return before.equals(after) ? Change.KEEPS : Change.MOVES;
        }

        public String verdict() {
            return switch (change()) {
                case STILL_BROKEN -> "still broken (nothing was delivered before either)";
                case BREAKS -> "BREAKS";
                case WORKS_NOW -> "works now (nothing was delivered before)";
                case KEEPS -> "unaffected";
                case MOVES -> deliveredAfter < pathsAfter ? "moves, some paths break" : "moves to the remaining gateways";
            };
        }
    }

    public static FailoverReport compare(List<FlowTrace> before, List<FlowTrace> after) {
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            FlowTrace b = before.get(i);
            FlowTrace a = after.get(i);
            Optional<String> why = a.paths().stream().filter(p -> p.disposition() != Disposition.DELIVERED)
                    .flatMap(p -> p.reason().stream()).findFirst();
            lines.add(new Line(a.name(), TunnelGateways.of(b.paths()), TunnelGateways.of(a.paths()), delivered(b), delivered(a),
                    a.paths().size(), why));
        }
        return new FailoverReport(lines);
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

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * One object per flow: {@code flow}, {@code change} ({@code keeps}, {@code moves}, {@code breaks},
     * {@code still-broken}, {@code works-now}), {@code verdict} as the text says it, the gateways
     * {@code before} and {@code after}, the delivered paths' counts and {@code why} when a path is not
     * delivered after. The {@code failover} of {@code trace --json --fail} and {@code check --json
     * --fail}, and the what-if answer's {@code report}.
     */
    public ArrayNode toJson() {
        ArrayNode report = MAPPER.createArrayNode();
        for (Line line : lines) {
            ObjectNode node = report.addObject();
            node.put("flow", line.flow());
            node.put("change", line.change().jsonName());
            node.put("verdict", line.verdict());
            line.before().forEach(node.putArray("before")::add);
            line.after().forEach(node.putArray("after")::add);
            node.put("deliveredBefore", line.deliveredBefore());
            node.put("deliveredAfter", line.deliveredAfter());
            node.put("pathsAfter", line.pathsAfter());
            line.why().ifPresent(why -> node.put("why", why));
        }
        return report;
    }
}
