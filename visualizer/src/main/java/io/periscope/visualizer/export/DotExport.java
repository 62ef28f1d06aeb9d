package io.periscope.visualizer.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code trace --dot}: the page's picture as Graphviz DOT, from the same document: a subgraph per
 * cluster (its CIDRs in the label), a box per host at the page's position ({@code pos}, for
 * {@code neato -n}), the cables with their driver, the unconnected pairs dashed, and each path of each
 * flow as coloured edges (forward solid, reply dashed).
 */
public final class DotExport {

    // The page's path colours (app.js), none of them a cable's or a drop's red, so a path never reads as the cable it crosses.
    private static final String[] PALETTE = {"#1b7c83", "#bf3989", "#2f9e44", "#b08800", "#a61e4d", "#5c940d", "#1098ad", "#6f4e37"};
    private static final double POINTS_PER_PIXEL = 0.75;

    private DotExport() {
    }

    public static String render(ObjectNode document) {
        JsonNode topology = document.path("topology");
        double height = topology.path("height").asDouble();
        StringBuilder dot = new StringBuilder();
        dot.append("digraph ").append(quote(document.path("name").asText("periscope"))).append(" {\n");
        dot.append("  graph [compound=true, fontname=\"Helvetica\", fontsize=11, splines=true];\n");
        dot.append("  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n");
        dot.append("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        Map<String, String> anchor = new HashMap<>();
        for (JsonNode cluster : topology.path("clusters")) {
            String name = cluster.path("name").asText();
            dot.append("  subgraph ").append(quote("cluster_" + name)).append(" {\n");
            StringBuilder label = new StringBuilder(name + " (" + cluster.path("cni").asText() + ")\\npods "
                    + join(cluster.path("podCIDRs")) + "  services " + join(cluster.path("serviceCIDRs")));
            if (cluster.has("globalCIDR")) {
                label.append("\\nglobal ").append(cluster.path("globalCIDR").asText());
            }
            if (!cluster.path("exports").isEmpty()) {
                StringBuilder exports = new StringBuilder();
                for (JsonNode export : cluster.path("exports")) {
                    exports.append(exports.isEmpty() ? "" : ", ").append(export.path("name").asText());
                }
                label.append("\\nexports ").append(exports);
            }
            dot.append("    label=").append(quote(label.toString())).append("; style=\"rounded,filled\"; fillcolor=\"#eef3f8\";\n");
            for (JsonNode host : cluster.path("hosts")) {
                String id = host.path("id").asText();
                String kind = host.path("kind").asText();
                String state = host.path("state").asText();
                dot.append("    ").append(quote(id)).append(" [label=").append(quote(host.path("name").asText()
                        + (kind.equals("gateway") ? " (" + state + ")" : "") + (host.has("ip") ? "\\n" + host.path("ip").asText() : "")));
                if (host.has("x")) {
                    double x = (host.path("x").asDouble() + host.path("w").asDouble() / 2) * POINTS_PER_PIXEL;
                    double y = (height - host.path("y").asDouble() - host.path("h").asDouble() / 2) * POINTS_PER_PIXEL;
                    dot.append(", pos=\"").append(String.format(Locale.ROOT, "%.1f,%.1f", x, y)).append("\"");
                }
                dot.append(switch (kind + "/" + state) {
                    case "gateway/active" -> ", color=\"#1a7f37\", penwidth=2, fillcolor=\"#eafbef\"";
                    case "gateway/standby" -> ", color=\"#b7791f\", penwidth=2, fillcolor=\"#fff8e5\"";
                    case "gateway/failed", "node/failed", "pod/failed" -> ", color=\"#cf222e\", style=\"rounded,dashed\"";
                    case "pod/up" -> ", style=\"rounded,dashed\"";
                    case "router/up" -> ", shape=ellipse, fillcolor=\"#f3eefc\"";
                    default -> "";
                }).append("];\n");
                anchor.putIfAbsent(name, id);
                if (kind.equals("gateway") && state.equals("active")) {
                    anchor.put(name, id);
                }
            }
            dot.append("  }\n");
        }
        for (JsonNode cable : topology.path("cables")) {
            dot.append("  ").append(quote(anchor.get(cable.path("left").asText()))).append(" -> ")
                    .append(quote(anchor.get(cable.path("right").asText()))).append(" [dir=none, penwidth=3, color=\"#57606a\", label=")
                    .append(quote(cable.path("driver").asText())).append(", ltail=").append(quote("cluster_" + cable.path("left").asText()))
                    .append(", lhead=").append(quote("cluster_" + cable.path("right").asText())).append("];\n");
        }
        for (JsonNode pair : topology.path("unconnected")) {
            dot.append("  ").append(quote(anchor.get(pair.path("left").asText()))).append(" -> ")
                    .append(quote(anchor.get(pair.path("right").asText()))).append(" [dir=none, style=dotted, color=\"#b1bac4\", label=\"unconnected (policy)\", ltail=")
                    .append(quote("cluster_" + pair.path("left").asText())).append(", lhead=").append(quote("cluster_" + pair.path("right").asText()))
                    .append("];\n");
        }
        for (JsonNode flow : document.path("flows")) {
            int p = 0;
            for (JsonNode path : flow.path("paths")) {
                String colour = PALETTE[p % PALETTE.length];
                for (String direction : List.of("forward", "reply")) {
                    String previous = null;
                    for (JsonNode hop : path.path(direction).path("hops")) {
                        String node = hop.path("node").asText();
                        if (previous != null && !previous.equals(node)) {
                            dot.append("  ").append(quote(previous)).append(" -> ").append(quote(node)).append(" [color=\"").append(colour)
                                    .append("\"").append(direction.equals("reply") ? ", style=dashed" : ", penwidth=2")
                                    .append(", label=").append(quote(flow.path("name").asText() + " p" + (p + 1) + (direction.equals("reply") ? " reply" : "")))
                                    .append("];\n");
                        }
                        previous = node;
                    }
                }
                p++;
            }
        }
        dot.append("}\n");
        return dot.toString();
    }

    private static String join(JsonNode array) {
        StringBuilder text = new StringBuilder();
        for (JsonNode item : array) {
            text.append(text.isEmpty() ? "" : ",").append(item.asText());
        }
        return text.toString();
    }

    private static String quote(String text) {
        return "\"" + (text == null ? "" : text.replace("\\n", "\u0000").replace("\\", "\\\\").replace("\"", "\\\"").replace("\u0000", "\\n")) + "\"";
    }
}
