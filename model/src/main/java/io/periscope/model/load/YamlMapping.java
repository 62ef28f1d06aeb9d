package io.periscope.model.load;

import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fields of one YAML mapping after merge keys were applied and unknown or repeated fields were
 * reported, with the path that names the mapping in error messages.
 *
 * @param node   the mapping's node, for the position of errors about a field that is missing
 * @param fields     field name to value node, in file order
 * @param misspelled known fields that an unknown field of this mapping was reported as a likely misspelling of
 */
record YamlMapping(String path, Node node, Map<String, Node> fields, Set<String> misspelled) {

    YamlMapping {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        misspelled = Set.copyOf(misspelled);
    }

    /** The field's value, empty when the field is absent or written without a value ({@code ip:} or {@code ip: ~}). */
    Optional<Node> value(String field) {
        Node value = fields.get(field);
        return value == null || isNull(value) ? Optional.empty() : Optional.of(value);
    }

    boolean written(String field) {
        return fields.containsKey(field);
    }

    String path(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    static boolean isNull(Node node) {
        return node instanceof ScalarNode && node.getTag().equals(Tag.NULL);
    }
}
