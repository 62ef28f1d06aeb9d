package io.periscope.features.steps;

import io.periscope.plan.HostId;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceText;

import java.util.ArrayList;
import java.util.List;

/**
 * One direction of a path as a flat sequence of what happened, host by host: the packet arriving
 * ({@code arrive}, "in IFACE"), each step of the trace (kind and text as {@code ./periscope trace}
 * prints them), and the packet leaving ({@code depart}, "out IFACE"). Scenario tables are matched
 * against it in order.
 */
record PathWalk(List<Event> events) {

    record Event(HostId node, String kind, String text, Packet packet) {
        String describe() {
            String what = text.startsWith(kind) ? text : kind + (text.isEmpty() ? "" : " " + text);
            return node + " " + what + "  " + packet.endpoints();
        }
    }

    static PathWalk of(List<Hop> hops) {
        List<Event> events = new ArrayList<>();
        for (Hop hop : hops) {
            events.add(new Event(hop.node(), "arrive", hop.in().map(i -> "in " + i).orElse(""), hop.arrive()));
            for (Step step : hop.steps()) {
                events.add(new Event(hop.node(), step.kind(), TraceText.step(step), step.packet()));
            }
            hop.depart().ifPresent(p -> events.add(new Event(hop.node(), "depart", hop.out().map(o -> "out " + o).orElse(""), p)));
        }
        return new PathWalk(events);
    }

    String describe() {
        StringBuilder text = new StringBuilder();
        for (Event event : events) {
            text.append("      ").append(event.describe()).append('\n');
        }
        return text.toString();
    }
}
