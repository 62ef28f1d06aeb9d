package io.periscope.visualizer.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Optional;

/**
 * Whether the served file's lab can be probed, why not, and the command that changes that.
 *
 * @param message for people: what the lab is (or is not), naming the file
 * @param command what to run so that a probe can go ahead, when something can be run
 */
public record LabStatus(Condition condition, String message, Optional<String> command) {

    /** The lab of the served file, from the page's point of view. */
    public enum Condition {
        /** Built from this file, as it is now, and converged: a probe can run. */
        UP,
        /** No lab of this topology exists. */
        DOWN,
        /** {@code lab up} is still building it. */
        BUILDING,
        /** The lab of this topology's name was built from another file. */
        OTHER_FILE,
        /** Built from this file, which has been edited since: the namespaces no longer match it. */
        CHANGED,
        /** This process is not root: the lab's state and namespaces are root's. */
        NOT_ROOT,
        /** The file does not load: there is nothing to compare with. */
        INVALID_FILE,
        /** This server has no lab at all. */
        UNAVAILABLE;

        /** The name the JSON and the page use: {@code up}, {@code other-file}, ... */
        public String jsonName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public boolean up() {
        return condition == Condition.UP;
    }

    /** {@code {"condition": "down", "up": false, "message": "...", "command": "..."}}, as {@code GET /api/lab} answers. */
    public ObjectNode json() {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("condition", condition.jsonName());
        node.put("up", up());
        node.put("message", message);
        command.ifPresent(c -> node.put("command", c));
        return node;
    }
}
