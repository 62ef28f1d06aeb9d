package io.periscope.simulator.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Traces as the JSON of the spec (section 3): {@code {"flows": [{name, from, to, resolved, paths: [{
 * disposition, forward: {hops}, reply: {hops}}]}]}}. Fields the spec does not list ({@code reason},
 * {@code choices}, the step kinds' own fields) are additions; absent values are left out rather than
 * written as null.
 */
public final class TraceJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TraceJson() {
    }

    /** The document, pretty-printed. */
    public static String render(List<FlowTrace> flows) {
        try {
            return MAPPER.writeValueAsString(document(flows));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    public static ObjectNode document(List<FlowTrace> flows) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode array = root.putArray("flows");
        for (FlowTrace flow : flows) {
            array.add(flow(flow));
        }
        return root;
    }

    public static ObjectNode flow(FlowTrace flow) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("name", flow.name());
        node.put("from", flow.from());
        node.put("to", flow.to());
        node.put("resolved", flow.resolved());
        ArrayNode paths = node.putArray("paths");
        for (PathTrace path : flow.paths()) {
            paths.add(path(path));
        }
        return node;
    }

    public static ObjectNode path(PathTrace path) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("disposition", path.disposition().yamlName());
        path.reason().ifPresent(r -> node.put("reason", r));
        if (!path.choices().isEmpty()) {
            ArrayNode choices = node.putArray("choices");
            path.choices().forEach(choices::add);
        }
        node.set("forward", hops(path.forward()));
        if (path.hasReply()) {
            node.set("reply", hops(path.reply()));
        }
        path.links().ifPresent(links -> node.set("links", links(links)));
        return node;
    }

    /** {@code {"forward": {...}, "reply": {...}, "roundTripMs": 50.0}}: what the shaped links a path crosses add up to. */
    private static ObjectNode links(PathLinks links) {
        ObjectNode node = MAPPER.createObjectNode();
        node.set("forward", figures(links.forward()));
        links.reply().ifPresent(reply -> node.set("reply", figures(reply)));
        links.roundTrip().ifPresent(rtt -> node.put("roundTripMs", millis(rtt)));
        return node;
    }

    private static ObjectNode figures(LinkFigures figures) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("delayMs", millis(figures.delay()));
        node.put("jitterMs", millis(figures.jitter()));
        figures.bottleneck().ifPresent(b -> {
            ObjectNode bottleneck = node.putObject("bottleneck");
            bottleneck.put("bitsPerSecond", b.bitsPerSecond());
            bottleneck.put("rate", io.periscope.model.topology.LinkProperties.rateText(b.bitsPerSecond()));
            bottleneck.put("link", b.link());
        });
        node.put("lossPercent", figures.lossProbability() * 100);
        ArrayNode crossed = node.putArray("crossed");
        figures.crossed().forEach(c -> crossed.add(c.link()));
        return node;
    }

    private static double millis(java.time.Duration duration) {
        return duration.toNanos() / 1_000_000.0;
    }

    private static ObjectNode hops(List<Hop> hops) {
        ObjectNode node = MAPPER.createObjectNode();
        ArrayNode array = node.putArray("hops");
        for (Hop hop : hops) {
            array.add(hop(hop));
        }
        return node;
    }

    public static ObjectNode hop(Hop hop) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("node", hop.node().toString());
        hop.in().ifPresent(i -> node.put("in", i));
        hop.out().ifPresent(o -> node.put("out", o));
        node.set("arrive", packet(hop.arrive()));
        ArrayNode steps = node.putArray("steps");
        for (Step step : hop.steps()) {
            steps.add(step(step));
        }
        hop.depart().ifPresent(d -> node.set("depart", packet(d)));
        return node;
    }

    public static ObjectNode step(Step step) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("kind", step.kind());
        switch (step) {
            case Step.Route r -> {
                node.put("table", r.table());
                node.put("route", r.route());
                node.put("nexthop", r.nexthop());
                r.via().ifPresent(v -> node.put("via", v.toString()));
                if (!r.device().isEmpty()) {
                    node.put("dev", r.device());
                }
            }
            case Step.Mark m -> {
                rule(node, m.rule());
                node.put(m.connmark() ? "connmark" : "mark", io.periscope.plan.netfilter.IptablesSyntax.hex(m.mark()));
            }
            case Step.Mss m -> {
                rule(node, m.rule());
                node.put("from", m.from());
                node.put("mss", m.mss());
            }
            case Step.Snat s -> natRule(node, s.rule());
            case Step.Dnat d -> natRule(node, d.rule());
            case Step.Unsnat u -> node.put("conntrack", "reply");
            case Step.Undnat u -> node.put("conntrack", "reply");
            case Step.Filter f -> {
                rule(node, f.rule());
                node.put("verdict", f.accepted() ? "accept" : "drop");
            }
            case Step.NoTrack n -> rule(node, n.rule());
            case Step.Encap e -> tunnel(node, e.encapsulation(), e.device(), e.vni(), e.port(), e.outerSrc().toString(),
                    e.outerDst().toString(), e.underlay(), e.encrypted()).put("resolution", e.resolution());
            case Step.Decap d -> {
                tunnel(node, d.encapsulation(), d.device(), d.vni(), d.port(), d.outerSrc().toString(), d.outerDst().toString(),
                        d.underlay(), d.encrypted());
                if (!d.check().isEmpty()) {
                    node.put("check", d.check());
                }
            }
            case Step.Deliver d -> node.put("to", d.to());
            case Step.Drop d -> node.put("reason", d.reason());
            case Step.Fragment f -> {
                node.put("device", f.device());
                node.put("mtu", f.mtu());
            }
        }
        node.set("packet", packet(step.packet()));
        return node;
    }

    private static void natRule(ObjectNode node, Optional<RuleRef> rule) {
        if (rule.isPresent()) {
            rule(node, rule.get());
        } else {
            node.put("conntrack", "established");
        }
    }

    private static void rule(ObjectNode node, RuleRef rule) {
        node.put("table", rule.table());
        node.put("chain", rule.chain());
        node.put("rule", rule.rule());
    }

    private static ObjectNode tunnel(ObjectNode node, Encapsulation encapsulation, String device, OptionalInt vni, int port, String src,
                                     String dst, String underlay, boolean encrypted) {
        node.put("encapsulation", encapsulation.jsonName());
        node.put("device", device);
        vni.ifPresent(n -> node.put("vni", n));
        if (encapsulation.inUdp()) {
            node.put("port", port);
        }
        node.put("outerSrc", src);
        node.put("outerDst", dst);
        node.put("underlay", underlay);
        node.put("encrypted", encrypted);
        return node;
    }

    public static ObjectNode packet(Packet packet) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("src", packet.src().toString());
        node.put("dst", packet.dst().toString());
        if (packet.protocol().hasPorts()) {
            node.put("sport", packet.sport());
            node.put("dport", packet.dport());
        }
        node.put("proto", packet.protocol().lowerName());
        // Only a flow with a size follows it (the file's `size`); others print as they always have.
        if (packet.length() != Packet.SMALL) {
            node.put("length", packet.length());
        }
        return node;
    }
}
