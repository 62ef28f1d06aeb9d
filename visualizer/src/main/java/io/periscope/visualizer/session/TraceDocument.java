package io.periscope.visualizer.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.load.TopologyError;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.simulator.reachability.ReachabilityMatrix;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TunnelGateways;
import io.periscope.visualizer.scene.SceneLayout;
import io.periscope.visualizer.scene.TopologyScene;
import io.periscope.simulator.whatif.FailoverReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The trace JSON of the spec (section 3), version 2: the same {@code flows} (each hop with its
 * {@code conntrack} view added), plus {@code format} and {@code version} so a reader can tell, the
 * {@code topology} they run over (with its layout), and the nodes {@code failed} for it. A flow that could not be traced carries {@code error} instead of
 * {@code paths}. A file that does not load gives {@code errors} and nothing else, so nothing stale
 * is drawn.
 */
public final class TraceDocument {

    public static final String FORMAT = "periscope-trace";
    public static final int VERSION = 2;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TraceDocument() {
    }

    public static ObjectNode of(Scenario scenario, List<Scenario.Outcome> flows) {
        return of(scenario, flows, null);
    }

    /** @param placement where the healthy set's boxes go (serve keeps them between revisions); null lays them out afresh */
    public static ObjectNode of(Scenario scenario, List<Scenario.Outcome> flows, SceneLayout.Placement placement) {
        ObjectNode root = header();
        root.put("name", scenario.healthy().name());
        ArrayNode failed = root.putArray("failed");
        scenario.failed().forEach(failed::add);
        root.set("topology", placement == null ? TopologyScene.of(scenario.healthy(), scenario.plan(), scenario.failed())
                : TopologyScene.of(scenario.healthy(), scenario.plan(), scenario.failed(), placement));
        root.set("flows", flows(flows));
        return root;
    }

    public static ArrayNode flows(List<Scenario.Outcome> outcomes) {
        ArrayNode array = MAPPER.createArrayNode();
        for (Scenario.Outcome outcome : outcomes) {
            switch (outcome) {
                case Scenario.Traced traced -> array.add(flow(traced.trace()));
                case Scenario.Untraceable untraceable -> {
                    ObjectNode node = array.addObject();
                    node.put("name", untraceable.flow().name());
                    node.put("error", untraceable.reason());
                    node.putArray("paths");
                }
            }
        }
        return array;
    }

    /**
     * A flow as the trace JSON writes it, plus on every path the {@code gateways} its forward packet
     * crosses (the flow table's column, computed once here rather than guessed again in the page), and on every hop {@code conntrack}: what the host's conntrack
     * made of each packet layer it handled (state, direction, the entry with its two tuples).
     */
    private static ObjectNode flow(FlowTrace trace) {
        ObjectNode node = TraceJson.flow(trace);
        JsonNode paths = node.path("paths");
        for (int i = 0; i < trace.paths().size(); i++) {
            PathTrace path = trace.paths().get(i);
            ArrayNode gateways = ((ObjectNode) paths.get(i)).putArray("gateways");
            TunnelGateways.crossedBy(path).forEach(gateways::add);
            conntrack(path.forward(), paths.get(i).path("forward").path("hops"));
            if (path.hasReply()) {
                conntrack(path.reply(), paths.get(i).path("reply").path("hops"));
            }
        }
        return node;
    }

    private static void conntrack(List<Hop> hops, JsonNode json) {
        for (int j = 0; j < hops.size(); j++) {
            ArrayNode layers = ((ObjectNode) json.get(j)).putArray("conntrack");
            for (ConntrackLookup lookup : hops.get(j).conntrack()) {
                ObjectNode layer = layers.addObject();
                layer.set("packet", TraceJson.packet(lookup.packet()));
                layer.put("state", lookup.state().name().toLowerCase(Locale.ROOT));
                layer.put("direction", lookup.reply() ? "reply" : "original");
                lookup.entry().ifPresent(entry -> {
                    ObjectNode e = layer.putObject("entry");
                    e.set("original", TraceJson.packet(entry.original()));
                    e.set("reply", TraceJson.packet(entry.replyTuple()));
                    e.put("snat", entry.snat());
                    e.put("dnat", entry.dnat());
                    e.put("mark", IptablesSyntax.hex(entry.connmark()));
                    e.put("confirmed", entry.confirmed());
                });
            }
        }
    }

    public static ObjectNode errors(List<TopologyError> errors) {
        ObjectNode root = header();
        ArrayNode array = root.putArray("errors");
        for (TopologyError error : errors) {
            ObjectNode node = array.addObject();
            node.put("file", error.file());
            node.put("line", error.line());
            node.put("column", error.column());
            node.put("path", error.path());
            node.put("problem", error.problem());
            node.put("fix", error.fix());
            node.put("text", error.format());
        }
        return root;
    }

    /**
     * What failing {@code after.failed()} does: the topology as it is then, each flow's healthy and
     * failed traces, and per flow whether it keeps its gateways, moves, breaks or was broken already
     * ({@link FailoverReport#toJson}).
     */
    public static ObjectNode whatIf(Scenario healthy, Scenario after) {
        return whatIf(healthy, after, null);
    }

    public static ObjectNode whatIf(Scenario healthy, Scenario after, SceneLayout.Placement placement) {
        List<Scenario.Outcome> before = healthy.trace(healthy.healthy().flows());
        List<Scenario.Outcome> now = after.trace(after.healthy().flows());
        ObjectNode root = of(after, now, placement);
        root.set("healthy", flows(before));
        List<FlowTrace> tracedBefore = new ArrayList<>();
        List<FlowTrace> tracedAfter = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            tracedBefore.add(asTrace(before.get(i)));
            tracedAfter.add(asTrace(now.get(i)));
        }
        root.set("report", FailoverReport.compare(tracedBefore, tracedAfter).toJson());
        return root;
    }

    /** A flow that could not be traced counts as one with no paths: nothing delivered. */
    private static FlowTrace asTrace(Scenario.Outcome outcome) {
        return switch (outcome) {
            case Scenario.Traced traced -> traced.trace();
            case Scenario.Untraceable u -> new FlowTrace(u.flow().name(), "", "", "", List.of());
        };
    }

    public static ObjectNode reachability(ReachabilityMatrix matrix) {
        ObjectNode root = header();
        ArrayNode sources = root.putArray("sources");
        matrix.sources().forEach(sources::add);
        ArrayNode columns = root.putArray("columns");
        for (ReachabilityMatrix.Column column : matrix.columns()) {
            ObjectNode node = columns.addObject();
            node.put("service", column.service());
            node.put("dnsName", column.dnsName());
            node.put("port", column.protocolAndPort());
        }
        ArrayNode rows = root.putArray("cells");
        for (List<ReachabilityMatrix.Cell> row : matrix.cells()) {
            ArrayNode cells = rows.addArray();
            for (ReachabilityMatrix.Cell cell : row) {
                ObjectNode node = cells.addObject();
                node.put("reach", cell.symbol());
                node.put("delivered", cell.delivered());
                node.put("paths", cell.paths());
                cell.error().ifPresent(e -> node.put("error", e));
            }
        }
        root.put("traced", matrix.traced());
        return root;
    }

    private static ObjectNode header() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        return root;
    }
}
