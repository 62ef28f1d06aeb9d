package io.periscope.lab.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.lab.trace.HopDifference;
import io.periscope.lab.trace.TraceEncap;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePacket;
import io.periscope.lab.trace.TracePath;

import java.util.List;
import java.util.Optional;

/**
 * The probe's findings as JSON (spec section 4): flows in the shape of section 3, one path per
 * connection real packets carried, with the source port it used and the simulated path it was
 * compared with; per flow {@code matchesSimulation} and, where false, {@code firstDifference}. An
 * observed hop has no steps but its encapsulation, written as the simulator writes an encap step,
 * and, where a WireGuard device dropped the packet, a drop step with the reason its counters give.
 */
public final class ProbeReportJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ProbeReportJson() {
    }

    public static String render(ProbeReport report) {
        try {
            return JSON.writeValueAsString(tree(report));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    /** The same document as a tree, for a caller that puts it into a document of its own (the visualizer's lab view). */
    public static ObjectNode tree(ProbeReport report) {
        ObjectNode root = JSON.createObjectNode();
        root.put("topology", report.topology());
        ArrayNode flows = root.putArray("flows");
        for (FlowProbeResult flow : report.flows()) {
            flows.add(flow(flow));
        }
        root.put("matchesSimulation", report.matchesSimulation());
        return root;
    }

    static ObjectNode flow(FlowProbeResult flow) {
        ObjectNode node = JSON.createObjectNode();
        node.put("name", flow.name());
        node.put("from", flow.from());
        node.put("to", flow.to());
        node.put("resolved", flow.resolved());
        ArrayNode paths = node.putArray("paths");
        for (ObservedAttempt attempt : flow.attempts()) {
            ObjectNode path = path(attempt.observed());
            if (attempt.outcome().sourcePort() != 0) {
                path.put("sourcePort", attempt.outcome().sourcePort());
            }
            attempt.outcome().problem().ifPresent(p -> path.put("socket", p));
            path.put("simulatedPath", attempt.match().simulatedPath() + 1);
            path.put("matchesSimulation", attempt.match().matches());
            attempt.match().firstDifference().ifPresent(d -> path.set("firstDifference", difference(d)));
            paths.add(path);
        }
        node.put("simulatedPaths", flow.simulatedPaths());
        ArrayNode seen = node.putArray("simulatedPathsTaken");
        flow.pathsSeen().forEach(i -> seen.add(i + 1));
        node.put("matchesSimulation", flow.matchesSimulation());
        flow.firstDifference().ifPresent(d -> node.set("firstDifference", difference(d)));
        flow.problem().ifPresent(p -> node.put("problem", p));
        flow.dns().ifPresent(dns -> node.set("dns", dns(dns)));
        flow.unanswered().ifPresent(why -> {
            node.put("disposition", "unreachable");
            node.put("unanswered", why);
        });
        return node;
    }

    static ObjectNode dns(NameResolution dns) {
        ObjectNode node = JSON.createObjectNode();
        node.put("name", dns.name());
        node.put("asker", dns.asker());
        ArrayNode observed = node.putArray("observed");
        dns.observed().forEach(a -> observed.add(a.toString()));
        ArrayNode simulated = node.putArray("simulated");
        dns.simulated().forEach(answer -> {
            ArrayNode turn = simulated.addArray();
            answer.forEach(a -> turn.add(a.toString()));
        });
        dns.sentTo().ifPresent(a -> node.put("sentTo", a.toString()));
        node.put("matchesSimulation", dns.matches());
        return node;
    }

    /**
     * A path; where the lab can tell why it ended (a WireGuard device's drop), the reason is the
     * path's, as in the simulator's trace, and a drop step of the hop where it ended.
     */
    static ObjectNode path(TracePath path) {
        ObjectNode node = JSON.createObjectNode();
        node.put("disposition", path.disposition());
        path.reason().ifPresent(r -> node.put("reason", r));
        boolean endedInReply = !path.reply().isEmpty();
        node.set("forward", hops(path.forward(), endedInReply ? Optional.empty() : path.reason()));
        if (endedInReply) {
            node.set("reply", hops(path.reply(), path.reason()));
        }
        return node;
    }

    /** @param drop why the packet ended at the last of these hops, if it is known */
    private static ObjectNode hops(List<TraceHop> hops, Optional<String> drop) {
        ObjectNode node = JSON.createObjectNode();
        ArrayNode array = node.putArray("hops");
        for (TraceHop hop : hops) {
            ObjectNode h = JSON.createObjectNode();
            h.put("node", hop.node());
            hop.in().ifPresent(i -> h.put("in", i));
            hop.out().ifPresent(o -> h.put("out", o));
            h.set("arrive", packet(hop.arrive()));
            ArrayNode steps = h.putArray("steps");
            hop.encap().ifPresent(e -> {
                ObjectNode step = steps.addObject();
                step.put("kind", "encap");
                step.put("encapsulation", e.encapsulation());
                step.put("device", e.device());
                if (e.encapsulation().equals(TraceEncap.VXLAN)) {
                    step.put("vni", e.vni());
                }
                // Bare ESP (IP protocol 50) has no port, as the simulator writes it.
                if (!e.encapsulation().equals(TraceEncap.ESP)) {
                    step.put("port", e.port());
                }
                step.put("outerSrc", e.outerSrc().toString());
                step.put("outerDst", e.outerDst().toString());
                step.put("underlay", e.underlay());
                step.put("encrypted", e.encrypted());
            });
            if (hop == hops.getLast()) {
                drop.ifPresent(reason -> {
                    ObjectNode step = steps.addObject();
                    step.put("kind", "drop");
                    step.put("reason", reason);
                });
            }
            hop.depart().ifPresent(d -> h.set("depart", packet(d)));
            array.add(h);
        }
        return node;
    }

    static ObjectNode packet(TracePacket packet) {
        ObjectNode node = JSON.createObjectNode();
        node.put("src", packet.src().toString());
        node.put("dst", packet.dst().toString());
        if (packet.proto().hasPorts()) {
            node.put("sport", packet.sport());
            node.put("dport", packet.dport());
        }
        node.put("proto", packet.proto().lowerName());
        return node;
    }

    private static ObjectNode difference(HopDifference d) {
        ObjectNode node = JSON.createObjectNode();
        node.put("direction", d.direction());
        node.put("hop", d.hop());
        node.put("node", d.node());
        node.put("field", d.field());
        node.put("simulated", d.simulated());
        node.put("observed", d.observed());
        return node;
    }
}
