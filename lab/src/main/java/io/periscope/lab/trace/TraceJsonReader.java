package io.periscope.lab.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads traces in the JSON shape of spec section 3, which is what the simulator prints with
 * {@code --json}. The lab compares real packets with this shape, field by field, rather than with
 * the simulator's classes: the contract is the JSON.
 */
public final class TraceJsonReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TraceJsonReader() {
    }

    /** A whole document: {@code {"flows": [...]}}. */
    public static List<TraceFlow> document(String json) {
        JsonNode root = tree(json);
        List<TraceFlow> flows = new ArrayList<>();
        for (JsonNode flow : root.path("flows")) {
            flows.add(flow(flow));
        }
        return flows;
    }

    public static TraceFlow flow(JsonNode flow) {
        List<TracePath> paths = new ArrayList<>();
        for (JsonNode path : flow.path("paths")) {
            paths.add(path(path));
        }
        return new TraceFlow(flow.path("name").asText(), flow.path("from").asText(), flow.path("to").asText(),
                flow.path("resolved").asText(), paths);
    }

    public static TracePath path(JsonNode path) {
        List<String> choices = new ArrayList<>();
        path.path("choices").forEach(c -> choices.add(c.asText()));
        return new TracePath(path.path("disposition").asText(), hops(path.path("forward")), hops(path.path("reply")), choices,
                text(path, "reason"));
    }

    /** One path given as JSON text. */
    public static TracePath path(String json) {
        return path(tree(json));
    }

    private static List<TraceHop> hops(JsonNode direction) {
        List<TraceHop> hops = new ArrayList<>();
        for (JsonNode hop : direction.path("hops")) {
            hops.add(hop(hop));
        }
        return hops;
    }

    /**
     * A hop as the lab can see it. Its encapsulation is the outer packet as it reaches the wire: a
     * source translation the hop applies to the outer packet after wrapping it (the NAT device in
     * front of a gateway behind NAT: a rule's {@code snat}, or conntrack's {@code undnat} on a reply)
     * is what a capture on the underlay shows, while the trace's {@code encap} step has the address
     * the gateway sent from.
     */
    static TraceHop hop(JsonNode hop) {
        Optional<String> out = text(hop, "out");
        Optional<TraceEncap> encap = Optional.empty();
        for (JsonNode step : hop.path("steps")) {
            String kind = step.path("kind").asText();
            if ("encap".equals(kind)) {
                encap = Optional.of(new TraceEncap(text(step, "encapsulation").orElse(TraceEncap.VXLAN),
                        text(step, "device").or(() -> out).orElse(""),
                        Ipv4Address.parse(step.path("outerSrc").asText()), Ipv4Address.parse(step.path("outerDst").asText()),
                        step.path("vni").asInt(), step.path("port").asInt(), text(step, "underlay").orElse(""),
                        step.path("encrypted").asBoolean(false)));
            } else if (encap.isPresent() && ("snat".equals(kind) || "undnat".equals(kind))) {
                TraceEncap wrapped = encap.get();
                TracePacket translated = packet(step.path("packet"));
                if (translated.dst().equals(wrapped.outerDst())) {
                    encap = Optional.of(new TraceEncap(wrapped.encapsulation(), wrapped.device(), translated.src(), wrapped.outerDst(),
                            wrapped.vni(), wrapped.port(), wrapped.underlay(), wrapped.encrypted()));
                }
            }
        }
        Optional<TracePacket> depart = hop.hasNonNull("depart") ? Optional.of(packet(hop.get("depart"))) : Optional.empty();
        return new TraceHop(hop.path("node").asText(), text(hop, "in"), out, packet(hop.path("arrive")), depart, encap);
    }

    static TracePacket packet(JsonNode packet) {
        Protocol proto = Protocol.parse(packet.path("proto").asText())
                .orElseThrow(() -> new IllegalArgumentException("trace packet with unknown protocol '" + packet.path("proto").asText() + "'"));
        return TracePacket.of(Ipv4Address.parse(packet.path("src").asText()), Ipv4Address.parse(packet.path("dst").asText()),
                packet.path("sport").asInt(0), packet.path("dport").asInt(0), proto);
    }

    private static Optional<String> text(JsonNode node, String field) {
        return node.hasNonNull(field) ? Optional.of(node.get(field).asText()) : Optional.empty();
    }

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("not trace JSON: " + e.getMessage(), e);
        }
    }
}
