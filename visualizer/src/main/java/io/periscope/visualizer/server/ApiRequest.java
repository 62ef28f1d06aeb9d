package io.periscope.visualizer.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.topology.Protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The body of a POST to the API: {@code {"from": X, "to": Y, "protocol": "tcp", "fail": ["c/n"]}},
 * each field as needed. Anything else is a {@link BadRequest} with a message that says what to send.
 */
record ApiRequest(String from, String to, Protocol protocol, List<String> fail) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A request the server refuses with 400 and this message. */
    static final class BadRequest extends RuntimeException {
        BadRequest(String message) {
            super(message);
        }
    }

    static ApiRequest parse(String body, boolean needsFlow) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body.isBlank() ? "{}" : body);
        } catch (JsonProcessingException e) {
            throw new BadRequest("the body is not JSON (" + e.getOriginalMessage() + "); send an object such as {\"fail\": [\"cluster1/gw-1\"]}");
        }
        if (!root.isObject()) {
            throw new BadRequest("the body must be a JSON object, such as {\"fail\": [\"cluster1/gw-1\"]}");
        }
        List<String> fail = new ArrayList<>();
        JsonNode failNode = root.path("fail");
        if (!failNode.isMissingNode()) {
            if (!failNode.isArray()) {
                throw new BadRequest("\"fail\" must be a list of CLUSTER/NODE names");
            }
            for (JsonNode name : failNode) {
                if (!name.isTextual()) {
                    throw new BadRequest("\"fail\" must be a list of CLUSTER/NODE names; " + name + " is not a string");
                }
                fail.add(name.asText());
            }
        }
        String from = text(root, "from", needsFlow);
        String to = text(root, "to", needsFlow);
        String protocolName = root.path("protocol").asText("tcp");
        Protocol protocol = Protocol.parseFlow(protocolName)
                .orElseThrow(() -> new BadRequest("\"protocol\": '" + protocolName + "' is not tcp, udp or icmp"));
        return new ApiRequest(from, to, protocol, fail);
    }

    private static String text(JsonNode root, String field, boolean required) {
        JsonNode node = root.path(field);
        if (node.isMissingNode() || node.isNull()) {
            if (required) {
                throw new BadRequest("\"" + field + "\" is missing; a flow needs \"from\" (CLUSTER/NAMESPACE/POD) and \"to\" (NAME.NAMESPACE.svc.clusterset.local:PORT)");
            }
            return null;
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new BadRequest("\"" + field + "\" must be a non-empty string");
        }
        return node.asText();
    }
}
