package io.periscope.visualizer.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.periscope.model.topology.Flow;
import io.periscope.visualizer.lab.Lab;
import io.periscope.visualizer.lab.LabDocument;
import io.periscope.visualizer.lab.LabStatus;
import io.periscope.visualizer.session.TraceDocument;
import io.periscope.visualizer.session.Workspace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * {@code GET /api/lab} (whether the served file's lab is up) and {@code POST /api/lab/probe}
 * ({@code {"flow": NAME}}, or {@code {}} for every flow: real packets, answered as the trace document
 * version 3). A probe the lab cannot run is refused with the lab's status: 403 when this process is
 * not root, 409 when the lab is down, building, another file's, or older than the file. One probe at
 * a time: the lab's captures and echo servers would see each other's packets.
 */
final class LabRoutes {

    /** A status and the JSON to send with it. */
    record Answer(HttpResponseStatus status, String json) {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Workspace workspace;
    private final Lab lab;
    private final ReentrantLock probing = new ReentrantLock();

    LabRoutes(Workspace workspace, Lab lab) {
        this.workspace = workspace;
        this.lab = lab;
    }

    Answer status() {
        return new Answer(HttpResponseStatus.OK, json(currentStatus().json()));
    }

    private LabStatus currentStatus() {
        return switch (workspace.state()) {
            case Workspace.Invalid invalid -> invalidFile();
            case Workspace.Ready ready -> lab.status(workspace.file(), ready.set());
        };
    }

    private static LabStatus invalidFile() {
        return new LabStatus(LabStatus.Condition.INVALID_FILE, "the topology file has errors; fix them and save it", Optional.empty());
    }

    Answer probe(String body) {
        if (!(workspace.state() instanceof Workspace.Ready ready)) {
            return refused(invalidFile());
        }
        Optional<String> flowName = flowName(body);
        List<Flow> flows = flowName.map(name -> List.of(ready.set().flow(name).orElseThrow(() -> new IllegalArgumentException(
                        "\"flow\": no flow named '" + name + "' in " + workspace.file() + "; its flows are: "
                                + ready.set().flows().stream().map(Flow::name).collect(Collectors.joining(", "))))))
                .orElse(ready.set().flows());
        if (flows.isEmpty()) {
            throw new IllegalArgumentException(workspace.file() + " names no flows; the lab probes the file's flows (add one under flows:)");
        }
        LabStatus status = lab.status(workspace.file(), ready.set());
        if (!status.up()) {
            return refused(status);
        }
        if (!probing.tryLock()) {
            return new Answer(HttpResponseStatus.CONFLICT, error("a probe is already running; wait for its answer", status));
        }
        try {
            List<String> log = Collections.synchronizedList(new ArrayList<>());
            ObjectNode report = lab.probe(workspace.file(), ready.set(), flowName, log::add);
            ObjectNode document = LabDocument.of(ready.set().name(), ready.revision(), status,
                    TraceDocument.flows(ready.healthy().trace(flows)), report, log);
            return new Answer(HttpResponseStatus.OK, json(document));
        } catch (Lab.Refused refusal) {
            return refused(refusal.status());
        } finally {
            probing.unlock();
        }
    }

    private static Optional<String> flowName(String body) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body.isBlank() ? "{}" : body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON (" + e.getOriginalMessage() + "); send {\"flow\": \"NAME\"}, or {} for every flow");
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException("the body must be a JSON object: {\"flow\": \"NAME\"}, or {} for every flow");
        }
        JsonNode flow = root.path("flow");
        if (flow.isMissingNode() || flow.isNull()) {
            return Optional.empty();
        }
        if (!flow.isTextual() || flow.asText().isBlank()) {
            throw new IllegalArgumentException("\"flow\" must be the name of one of the file's flows");
        }
        return Optional.of(flow.asText());
    }

    private static Answer refused(LabStatus status) {
        HttpResponseStatus code = status.condition() == LabStatus.Condition.NOT_ROOT ? HttpResponseStatus.FORBIDDEN : HttpResponseStatus.CONFLICT;
        return new Answer(code, error(status.message(), status));
    }

    private static String error(String message, LabStatus status) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("error", message + status.command().map(c -> "; run: " + c).orElse(""));
        node.set("lab", status.json());
        return json(node);
    }

    private static String json(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }
}
