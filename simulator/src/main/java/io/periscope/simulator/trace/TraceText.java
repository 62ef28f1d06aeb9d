package io.periscope.simulator.trace;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.IptablesSyntax;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Traces for people, in the style of the seed documents: per path a header (which path of how many,
 * its disposition, the alternatives it took), then per hop one line with the host and its interfaces,
 * and per step one line followed by the {@code SRC: … DST: …} line of the packet after it.
 */
public final class TraceText {

    private TraceText() {
    }

    public static String render(List<FlowTrace> flows) {
        StringBuilder text = new StringBuilder();
        for (FlowTrace flow : flows) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            render(flow, text);
        }
        return text.toString();
    }

    public static String render(FlowTrace flow) {
        StringBuilder text = new StringBuilder();
        render(flow, text);
        return text.toString();
    }

    private static void render(FlowTrace flow, StringBuilder text) {
        text.append("flow ").append(flow.name()).append(": ").append(flow.from()).append(" -> ").append(flow.to());
        if (!flow.to().equals(flow.resolved())) {
            text.append(" (").append(flow.resolved()).append(')');
        }
        text.append('\n');
        text.append("  ").append(summary(flow.paths())).append('\n');
        int n = flow.paths().size();
        for (int i = 0; i < n; i++) {
            PathTrace path = flow.paths().get(i);
            text.append("path ").append(i + 1).append(" of ").append(n).append(": ").append(path.disposition().yamlName());
            path.reason().ifPresent(r -> text.append(" (").append(r).append(')'));
            text.append('\n');
            path.links().ifPresent(links -> text.append("  links: ").append(links.text()).append('\n'));
            for (String choice : path.choices()) {
                text.append("  choice: ").append(choice).append('\n');
            }
            if (path.forward().isEmpty()) {
                text.append("  forward: nothing sent\n");
            } else {
                text.append("  forward\n");
                hops(path.forward(), text);
            }
            if (path.hasReply()) {
                text.append("  reply\n");
                hops(path.reply(), text);
            }
        }
    }

    private static String summary(List<PathTrace> paths) {
        Map<String, Integer> counts = new TreeMap<>();
        for (PathTrace p : paths) {
            counts.merge(p.disposition().yamlName(), 1, Integer::sum);
        }
        StringBuilder s = new StringBuilder().append(paths.size()).append(paths.size() == 1 ? " path" : " paths");
        counts.forEach((d, c) -> s.append(", ").append(c).append(' ').append(d));
        return s.toString();
    }

    private static void hops(List<Hop> hops, StringBuilder text) {
        int i = 1;
        for (Hop hop : hops) {
            text.append("    ").append(i++).append(". ").append(hop.node());
            hop.in().ifPresent(in -> text.append("  in ").append(in));
            hop.out().ifPresent(out -> text.append("  out ").append(out));
            text.append('\n');
            for (Step step : hop.steps()) {
                text.append("       ").append(step(step)).append('\n');
                text.append("         ").append(step.packet().endpoints()).append('\n');
            }
        }
    }

    /**
     * {@code vxlan vxlan-tunnel vni 1000 udp/4500}, {@code wireguard submariner udp/4500},
     * {@code esp-in-udp <connection> udp/4500}, {@code esp <connection> proto 50}.
     */
    private static String tunnel(Encapsulation encapsulation, String device, OptionalInt vni, int port) {
        return encapsulation.jsonName() + " " + device + (vni.isPresent() ? " vni " + vni.getAsInt() : "")
                + (encapsulation.inUdp() ? " udp/" + port : " proto " + Protocol.ESP.number());
    }

    /** One step as a line, without the packet. */
    public static String step(Step step) {
        return switch (step) {
            case Step.Route r -> "route table " + r.table() + ": " + r.route() + " -> " + r.nexthop();
            case Step.Mark m -> (m.connmark() ? "connmark " : "mark ") + IptablesSyntax.hex(m.mark()) + " " + m.rule();
            case Step.Mss m -> "mss " + m.from() + " -> " + m.mss() + " " + m.rule();
            case Step.Snat s -> "snat " + s.rule().map(RuleRef::toString).orElse("(conntrack, established connection)");
            case Step.Dnat d -> "dnat " + d.rule().map(RuleRef::toString).orElse("(conntrack, established connection)");
            case Step.Unsnat u -> "unsnat (conntrack reply): destination back to " + u.packet().dst();
            case Step.Undnat u -> "undnat (conntrack reply): source back to " + u.packet().src();
            case Step.Filter f -> "filter " + f.rule();
            case Step.NoTrack n -> "notrack " + n.rule();
            case Step.Encap e -> "encap " + tunnel(e.encapsulation(), e.device(), e.vni(), e.port()) + " " + e.outerSrc() + " -> "
                    + e.outerDst() + " via " + e.underlay() + ", encrypted: " + e.encrypted() + " (" + e.resolution() + ")";
            case Step.Decap d -> "decap " + tunnel(d.encapsulation(), d.device(), d.vni(), d.port()) + " " + d.outerSrc() + " -> "
                    + d.outerDst() + " from " + d.underlay() + ", encrypted: " + d.encrypted() + (d.check().isEmpty() ? "" : " (" + d.check() + ")");
            case Step.Deliver d -> "deliver to " + d.to();
            case Step.Drop d -> "drop: " + d.reason();
            case Step.Fragment f -> "fragment: larger than " + f.device() + "'s MTU " + f.mtu() + " without Don't Fragment; fragments of at most "
                    + f.packet().length() + " bytes";
        };
    }
}
