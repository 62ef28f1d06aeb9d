package io.periscope.lab.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * {@code lab bench --json}, described by docs/schemas/lab-bench.schema.json. Written field by field
 * (rates in bits per second, bytes, gateways as {@code cluster/node}) rather than from the records,
 * so that the document stays what the schema says when the records change. Rendered here rather than
 * in the command so that a test can check a report built in code against the schema without a lab.
 */
public final class BenchReportJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BenchReportJson() {
    }

    public static String render(BenchReport report) {
        ObjectNode root = JSON.createObjectNode();
        root.put("topology", report.topology());
        root.put("seconds", report.seconds());
        root.put("measuredSeconds", report.measuredSeconds());
        ArrayNode pairs = root.putArray("pairs");
        for (BenchPlan.Pair pair : report.pairs()) {
            ObjectNode p = pairs.addObject();
            p.put("flow", pair.flow());
            p.put("from", pair.source().toString());
            p.put("sourceAddress", pair.sentFrom().toString());
            p.put("to", pair.destination() + ":" + pair.port());
            p.put("server", pair.server().toString());
            p.put("serverPort", pair.serverPort());
            p.put("streams", report.streams().stream().filter(s -> s.pair() == pair.index()).count());
        }
        ArrayNode skipped = root.putArray("skipped");
        report.skipped().forEach(s -> skipped.addObject().put("flow", s.flow()).put("reason", s.reason()));
        ArrayNode flows = root.putArray("flows");
        for (BenchReport.StreamResult s : report.streams()) {
            ObjectNode f = flows.addObject();
            f.put("id", s.id());
            f.put("flow", s.flow());
            f.put("sourcePort", s.sourcePort());
            f.put("bytes", s.bytes());
            f.put("bitsPerSecond", s.bitsPerSecond());
            f.put("retransmits", s.retransmits());
            f.put("meanRttMicros", s.meanRttMicros());
            strings(f.putArray("localGateways"), s.measured().localBytes().keySet());
            strings(f.putArray("remoteGateways"), s.measured().remoteBytes().keySet());
            s.measured().localBytes().forEach(f.putObject("localBytes")::put);
            s.measured().remoteBytes().forEach(f.putObject("remoteBytes")::put);
            ArrayNode routes = f.putArray("predicted");
            for (BenchPrediction.Route route : s.predicted().routes()) {
                ObjectNode r = routes.addObject();
                optional(r, "localGateway", route.local());
                optional(r, "remoteGateway", route.remote());
                r.put("probability", route.probability());
                r.put("delivered", route.delivered());
            }
            optional(f, "socketHashedAt", s.predicted().socketHashedAt());
            f.put("matchesPrediction", s.matchesPrediction());
            optional(f, "problem", s.problem());
        }
        ArrayNode gateways = root.putArray("gateways");
        for (BenchReport.GatewayResult g : report.gateways()) {
            ObjectNode o = gateways.addObject();
            o.put("gateway", g.gateway());
            o.put("cluster", g.cluster());
            o.put("active", g.active());
            o.putObject("egress").put("predicted", g.egressPredicted()).put("predictedSpread", g.egressSpread()).put("measured", g.egressMeasured());
            o.putObject("ingress").put("predicted", g.ingressPredicted()).put("predictedSpread", g.ingressSpread()).put("measured", g.ingressMeasured());
            o.putObject("wan").put("sentBytes", g.wanSent()).put("receivedBytes", g.wanReceived())
                    .put("sentBitsPerSecond", g.wanSentBitsPerSecond()).put("receivedBitsPerSecond", g.wanReceivedBitsPerSecond());
        }
        ArrayNode spread = root.putArray("spread");
        for (HashSpread.Spread s : report.spread()) {
            ObjectNode o = spread.addObject();
            o.put("cluster", s.cluster());
            o.put("side", s.side());
            o.put("chosenBy", s.chosenBy());
            o.put("policy", s.policy());
            o.put("perFlow", HashSpread.perFlow(s.policy()));
            o.put("flows", s.flows());
            o.put("draws", s.draws());
            strings(o.putArray("gateways"), s.gateways());
            o.put("expectedPerGateway", s.expected());
            o.put("samplingError", s.samplingError());
            counts(o.putObject("measured"), s.measured());
            ObjectNode predicted = o.putObject("predicted");
            s.predicted().forEach(predicted::put);
            s.pValue().ifPresentOrElse(v -> o.put("pValue", v), () -> o.putNull("pValue"));
            o.put("withinSamplingError", s.withinSamplingError());
        }
        BenchReport.Totals t = report.totals();
        root.putObject("totals").put("flows", t.flows()).put("flowsThatMovedBytes", t.flowsThatMovedBytes()).put("bytes", t.bytes())
                .put("bitsPerSecond", t.bitsPerSecond()).put("fairness", t.fairness()).put("retransmits", t.retransmits())
                .put("wanSentBytes", t.wanSent()).put("wanToPayload", t.wanToPayload());
        root.put("basis", report.basis());
        strings(root.putArray("differences"), report.differences());
        root.put("matchesPrediction", report.matchesPrediction());
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the report as JSON: " + e.getMessage(), e);
        }
    }

    private static void strings(ArrayNode array, Collection<String> values) {
        values.forEach(array::add);
    }

    private static void counts(ObjectNode object, Map<String, Integer> counts) {
        counts.forEach(object::put);
    }

    private static void optional(ObjectNode object, String field, Optional<String> value) {
        if (value.isPresent()) {
            object.put(field, value.get());
        } else {
            object.putNull(field);
        }
    }
}
