package io.periscope.visualizer.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.visualizer.session.TraceDocument;

import java.util.List;

/**
 * The trace document version 3: version 2's {@code flows} (simulated, as the page draws them) with
 * what real packets did beside each, so that a reader of version 2 finds everything where it was and
 * one of version 3 finds the lab's findings next to the trace they were compared with:
 * <ul>
 * <li>{@code lab}: the lab's status when it was probed ({@link LabStatus#json()});</li>
 * <li>per flow {@code observed}: the flow's entry of {@code lab probe --json} without its name (the
 *     observed {@code paths} in the trace shape, each with {@code simulatedPath},
 *     {@code matchesSimulation} and, where it differs, {@code firstDifference}: the direction, the
 *     1-based hop, the node and the field);</li>
 * <li>{@code matchesSimulation} for them all, and {@code log}: what the probe said as it went.</li>
 * </ul>
 * Documents without the lab's findings stay version 2.
 */
public final class LabDocument {

    public static final int VERSION = 3;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private LabDocument() {
    }

    /**
     * @param simulated the flows probed, traced by the simulator ({@link TraceDocument#flows})
     * @param report    the lab's findings for them ({@link Lab#probe})
     */
    public static ObjectNode of(String name, long revision, LabStatus status, ArrayNode simulated, ObjectNode report, List<String> log) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", TraceDocument.FORMAT);
        root.put("version", VERSION);
        root.put("name", name);
        root.putArray("failed");
        root.put("revision", revision);
        root.set("lab", status.json());
        root.put("matchesSimulation", report.path("matchesSimulation").asBoolean(false));
        ArrayNode lines = root.putArray("log");
        log.forEach(lines::add);
        ArrayNode flows = root.putArray("flows");
        for (JsonNode flow : simulated) {
            ObjectNode entry = ((ObjectNode) flow).deepCopy();
            observed(report, flow.path("name").asText()).ifPresent(found -> entry.set("observed", found));
            flows.add(entry);
        }
        return root;
    }

    private static java.util.Optional<ObjectNode> observed(ObjectNode report, String flow) {
        for (JsonNode found : report.path("flows")) {
            if (found.path("name").asText().equals(flow) && found instanceof ObjectNode object) {
                ObjectNode copy = object.deepCopy();
                copy.remove(List.of("name", "from", "to"));
                return java.util.Optional.of(copy);
            }
        }
        return java.util.Optional.empty();
    }
}
