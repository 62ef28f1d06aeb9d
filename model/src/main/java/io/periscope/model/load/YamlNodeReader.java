package io.periscope.model.load;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.ReservedRange;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads typed values out of SnakeYAML's node tree and turns every mistake into a {@link TopologyError}
 * at the offending node, so that reading goes on and the user sees all mistakes at once. Every value it
 * visits has its position recorded by path, for the checks that run after the records are built.
 *
 * <p>A method that returns an empty {@code Optional} either found nothing (and reported nothing, for
 * optional fields) or reported an error; callers that need to know which compare {@link #errorCount()}
 * before and after.
 */
final class YamlNodeReader {

    private final String file;
    private final List<TopologyError> errors = new ArrayList<>();
    private final Map<String, SourcePosition> positions = new HashMap<>();
    private final Map<String, List<Integer>> fileIndices = new HashMap<>();

    YamlNodeReader(String file) {
        this.file = file;
    }

    int errorCount() {
        return errors.size();
    }

    List<TopologyError> errors() {
        return List.copyOf(errors);
    }

    /** Called once, when reading is done: the positions are handed over, not copied (a 1.5 MB file records some 100,000). */
    SourcePositions positions() {
        return SourcePositions.handedOver(positions, fileIndices);
    }

    static SourcePosition positionOf(Node node) {
        Mark mark = node.getStartMark();
        return mark == null ? SourcePosition.UNKNOWN : new SourcePosition(mark.getLine() + 1, mark.getColumn() + 1);
    }

    void error(Node at, String path, String problem, String fix) {
        SourcePosition position = positionOf(at);
        errors.add(new TopologyError(file, position.line(), position.column(), path, problem, fix));
    }

    void record(String path, Node node) {
        positions.putIfAbsent(path, positionOf(node));
    }

    /** Notes which file entries of a list made it into the records, when some did not. */
    void keptEntries(String listPath, List<Integer> kept, int written) {
        if (kept.size() != written) {
            fileIndices.put(listPath, List.copyOf(kept));
        }
    }

    // ---- structure ----

    /**
     * The node as a mapping with only the given fields allowed. A value written as nothing
     * ({@code globalnet:}) is an empty mapping, so every field takes its default.
     */
    Optional<YamlMapping> mapping(Node node, String path, String what, List<String> allowed) {
        record(path, node);
        if (YamlMapping.isNull(node)) {
            return Optional.of(new YamlMapping(path, node, Map.of(), Set.of()));
        }
        if (!(node instanceof MappingNode mappingNode)) {
            String layout = path.isEmpty() ? "start the file with top-level 'field: value' lines"
                    : "write it as 'field: value' lines indented under it, or as {field: value, ...}";
            error(node, path, what + " should be a mapping of fields, found " + describe(node),
                    layout + "; its fields are: " + String.join(", ", allowed));
            return Optional.empty();
        }
        Map<String, Node> fields = new LinkedHashMap<>();
        Map<String, Node> keys = new HashMap<>();
        Set<String> misspelled = new HashSet<>();
        for (NodeTuple tuple : flatten(mappingNode, path, Collections.newSetFromMap(new IdentityHashMap<>()))) {
            Node keyNode = tuple.getKeyNode();
            if (!(keyNode instanceof ScalarNode scalarKey) || YamlMapping.isNull(keyNode)) {
                error(keyNode, path, "a field name must be plain text, found " + describe(keyNode),
                        "write the field as 'name: value'");
                continue;
            }
            String key = scalarKey.getValue();
            String fieldPath = path.isEmpty() ? key : path + "." + key;
            if (!allowed.contains(key)) {
                Optional<String> meant = NameSuggestion.closest(key, allowed);
                error(keyNode, fieldPath, "unknown field '" + key + "' in " + what, meant
                        .map(close -> "did you mean '" + close + "'?")
                        .orElse("remove it; the fields here are: " + String.join(", ", allowed)));
                meant.ifPresent(misspelled::add);
                continue;
            }
            Node first = keys.putIfAbsent(key, keyNode);
            if (first != null) {
                error(keyNode, fieldPath, "field '" + key + "' is written twice in " + what + " (first on line "
                        + positionOf(first).line() + ")", "keep one of the two");
                continue;
            }
            fields.put(key, tuple.getValueNode());
            // A list or mapping written in block style starts on the next line; the field is where its key is.
            record(fieldPath, tuple.getValueNode() instanceof ScalarNode ? tuple.getValueNode() : keyNode);
        }
        return Optional.of(new YamlMapping(path, node, fields, misspelled));
    }

    /**
     * A mapping whose keys are data rather than field names (labels, options): every key allowed,
     * values read as text.
     */
    Optional<Map<String, String>> stringMap(Node node, String path, String what, String example) {
        record(path, node);
        if (YamlMapping.isNull(node)) {
            return Optional.of(Map.of());
        }
        if (!(node instanceof MappingNode mappingNode)) {
            error(node, path, what + " should be a mapping of keys to values, found " + describe(node),
                    "write it as " + example);
            return Optional.empty();
        }
        int before = errorCount();
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, Node> keys = new HashMap<>();
        for (NodeTuple tuple : flatten(mappingNode, path, Collections.newSetFromMap(new IdentityHashMap<>()))) {
            Node keyNode = tuple.getKeyNode();
            if (!(keyNode instanceof ScalarNode scalarKey) || YamlMapping.isNull(keyNode)) {
                error(keyNode, path, "a key in " + what + " must be plain text, found " + describe(keyNode), "write it as " + example);
                continue;
            }
            String key = scalarKey.getValue();
            String keyPath = path + "." + key;
            Node first = keys.putIfAbsent(key, keyNode);
            if (first != null) {
                error(keyNode, keyPath, "key '" + key + "' is written twice in " + what + " (first on line "
                        + positionOf(first).line() + ")", "keep one of the two");
                continue;
            }
            Node valueNode = tuple.getValueNode();
            record(keyPath, valueNode);
            if (!(valueNode instanceof ScalarNode scalarValue) || YamlMapping.isNull(valueNode)) {
                error(valueNode, keyPath, "the value of '" + key + "' in " + what + " should be text, found " + describe(valueNode),
                        YamlMapping.isNull(valueNode) ? "write a value after '" + key + ":' (\"\" for an empty one)"
                                : "write it as " + example);
                continue;
            }
            values.put(key, scalarValue.getValue());
        }
        return errorCount() == before ? Optional.of(values) : Optional.empty();
    }

    /** The entries of a list field; none when the field is absent. */
    List<Node> list(YamlMapping mapping, String field, String what) {
        Optional<Node> value = mapping.value(field);
        if (value.isEmpty()) {
            return List.of();
        }
        return sequence(value.get(), mapping.path(field), what).orElse(List.of());
    }

    Optional<List<Node>> sequence(Node node, String path, String what) {
        record(path, node);
        if (!(node instanceof SequenceNode sequenceNode)) {
            error(node, path, what + " should be a list, found " + describe(node),
                    "write one '- ' entry per line under it, or [a, b, ...]");
            return Optional.empty();
        }
        List<Node> items = sequenceNode.getValue();
        for (int i = 0; i < items.size(); i++) {
            record(path + "[" + i + "]", items.get(i));
        }
        return Optional.of(items);
    }

    /**
     * The mapping's own pairs plus those it merges in with {@code <<: *anchor}; pairs written in the
     * mapping win over merged ones, as YAML's merge key specifies.
     */
    private List<NodeTuple> flatten(MappingNode node, String path, Set<MappingNode> visiting) {
        if (!visiting.add(node)) {
            error(node, path, "a merge key (<<) merges a mapping into itself", "merge a different anchor");
            return List.of();
        }
        List<NodeTuple> own = new ArrayList<>();
        List<NodeTuple> merged = new ArrayList<>();
        for (NodeTuple tuple : node.getValue()) {
            if (tuple.getKeyNode().getTag().equals(Tag.MERGE)) {
                Node source = tuple.getValueNode();
                List<Node> sources = source instanceof SequenceNode seq ? seq.getValue() : List.of(source);
                for (Node each : sources) {
                    if (each instanceof MappingNode mergedMapping) {
                        merged.addAll(flatten(mergedMapping, path, visiting));
                    } else {
                        error(each, path, "a merge key (<<) needs a mapping or a list of mappings, found " + describe(each),
                                "merge an anchored mapping: <<: *name");
                    }
                }
            } else {
                own.add(tuple);
            }
        }
        visiting.remove(node);
        if (merged.isEmpty()) {
            return own;
        }
        // Own pairs first; a merged pair only when no earlier pair (own, or merged before it) has its key.
        // The keys taken so far are a set: a mapping merging many mappings costs one look-up per pair, not a scan.
        List<NodeTuple> all = new ArrayList<>(own);
        Set<String> taken = new HashSet<>();
        for (NodeTuple tuple : own) {
            if (tuple.getKeyNode() instanceof ScalarNode key) {
                taken.add(key.getValue());
            }
        }
        for (NodeTuple tuple : merged) {
            if (!(tuple.getKeyNode() instanceof ScalarNode key) || taken.add(key.getValue())) {
                all.add(tuple);
            }
        }
        return all;
    }

    // ---- required and optional fields ----

    /** The field's value node, reporting it as missing when it is absent or empty. */
    Optional<Node> required(YamlMapping mapping, String field, String hint) {
        Optional<Node> value = mapping.value(field);
        // A field reported as misspelled ("did you mean 'podCIDRs'?") is not reported again as missing.
        if (value.isEmpty() && !mapping.misspelled().contains(field)) {
            Node at = mapping.written(field) ? mapping.fields().get(field) : mapping.node();
            String problem = mapping.written(field) ? "'" + field + "' has no value" : "missing required field '" + field + "'";
            error(at, mapping.path(field), problem, "add '" + field + ": ...' with " + hint);
        }
        return value;
    }

    Optional<String> requiredText(YamlMapping mapping, String field, String hint) {
        return required(mapping, field, hint).flatMap(node -> text(node, mapping.path(field)));
    }

    Optional<String> optionalText(YamlMapping mapping, String field) {
        return mapping.value(field).flatMap(node -> text(node, mapping.path(field)));
    }

    Optional<Boolean> optionalBool(YamlMapping mapping, String field) {
        return mapping.value(field).flatMap(node -> bool(node, mapping.path(field)));
    }

    Optional<Integer> requiredInt(YamlMapping mapping, String field, String hint) {
        return required(mapping, field, hint).flatMap(node -> integer(node, mapping.path(field)));
    }

    Optional<Integer> optionalInt(YamlMapping mapping, String field) {
        return mapping.value(field).flatMap(node -> integer(node, mapping.path(field)));
    }

    Optional<Ipv4Address> requiredAddress(YamlMapping mapping, String field, String hint) {
        return required(mapping, field, hint).flatMap(node -> address(node, mapping.path(field)));
    }

    Optional<Ipv4Address> optionalAddress(YamlMapping mapping, String field) {
        return mapping.value(field).flatMap(node -> address(node, mapping.path(field)));
    }

    Optional<Ipv4Prefix> optionalPrefix(YamlMapping mapping, String field) {
        return mapping.value(field).flatMap(node -> prefix(node, mapping.path(field), false));
    }

    /**
     * A Globalnet CIDR: as {@link #optionalPrefix}, but link-local is allowed, since seed 000's Global
     * Private Network is 169.254.0.0/16. Global IPs live only in the gateways' NAT rules and the tunnels
     * carry them inside their own packets, so the reason link-local cannot address a host does not hold.
     */
    Optional<Ipv4Prefix> optionalGlobalPrefix(YamlMapping mapping, String field) {
        return mapping.value(field).flatMap(node -> prefix(node, mapping.path(field), true));
    }

    /** One of a fixed set of words, e.g. a CNI or a cable driver; suggests the closest on a typo. */
    <E extends Enum<E>> Optional<E> optionalChoice(YamlMapping mapping, String field, E[] choices,
                                                   Function<E, String> yamlName, boolean ignoreCase) {
        return mapping.value(field).flatMap(node -> choice(node, mapping.path(field), field, choices, yamlName, ignoreCase));
    }

    <E extends Enum<E>> Optional<E> choice(Node node, String path, String field, E[] choices,
                                           Function<E, String> yamlName, boolean ignoreCase) {
        Optional<String> text = text(node, path);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        for (E choice : choices) {
            String name = yamlName.apply(choice);
            names.add(name);
            if (ignoreCase ? name.equalsIgnoreCase(text.get()) : name.equals(text.get())) {
                return Optional.of(choice);
            }
        }
        String known = "'" + String.join("', '", names) + "'";
        error(node, path, "unknown " + field + " '" + text.get() + "'",
                NameSuggestion.closest(text.get(), names).map(n -> "did you mean '" + n + "'? ").orElse("") + "write one of " + known);
        return Optional.empty();
    }

    // ---- scalars ----

    Optional<String> text(Node node, String path) {
        if (node instanceof ScalarNode scalar && !YamlMapping.isNull(node)) {
            return Optional.of(scalar.getValue());
        }
        error(node, path, "expected a single value, found " + describe(node), "write a plain value such as 'name: east'");
        return Optional.empty();
    }

    Optional<Boolean> bool(Node node, String path) {
        if (node instanceof ScalarNode scalar && node.getTag().equals(Tag.BOOL)) {
            String value = scalar.getValue().toLowerCase(Locale.ROOT);
            return Optional.of(value.equals("true") || value.equals("yes") || value.equals("on"));
        }
        error(node, path, "expected true or false, found " + describe(node), "write true or false (without quotes)");
        return Optional.empty();
    }

    Optional<Integer> integer(Node node, String path) {
        if (node instanceof ScalarNode scalar && node.getTag().equals(Tag.INT)) {
            Optional<Long> value = decimal(scalar.getValue());
            if (value.isPresent() && value.get() >= Integer.MIN_VALUE && value.get() <= Integer.MAX_VALUE) {
                return Optional.of(value.get().intValue());
            }
        }
        error(node, path, "expected a whole number, found " + describe(node), "write a plain decimal number without quotes, such as 8");
        return Optional.empty();
    }

    /**
     * YAML 1.1 integers as SnakeYAML resolves them: decimal with optional underscores, 0x hex, 0b binary,
     * leading-0 octal. Base-60 (1:30) is refused: nobody means that in a topology.
     */
    private static Optional<Long> decimal(String text) {
        String digits = text.replace("_", "");
        boolean negative = digits.startsWith("-");
        if (digits.startsWith("-") || digits.startsWith("+")) {
            digits = digits.substring(1);
        }
        try {
            long value;
            if (digits.startsWith("0x")) {
                value = Long.parseLong(digits.substring(2), 16);
            } else if (digits.startsWith("0b")) {
                value = Long.parseLong(digits.substring(2), 2);
            } else if (digits.length() > 1 && digits.startsWith("0")) {
                value = Long.parseLong(digits.substring(1), 8);
            } else {
                value = Long.parseLong(digits);
            }
            return Optional.of(negative ? -value : value);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    Optional<Ipv4Address> address(Node node, String path) {
        Optional<String> text = text(node, path);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Ipv4Address address;
        try {
            address = Ipv4Address.parse(text.get().trim());
        } catch (IllegalArgumentException e) {
            // A hint shows a valid address: the part before the slash only when it is one.
            Optional<String> beforeSlash = text.get().contains("/")
                    ? Optional.of(text.get().trim().substring(0, text.get().trim().indexOf('/'))).filter(YamlNodeReader::isAddress)
                    : Optional.empty();
            String fix = beforeSlash.map(a -> "write the address without a prefix length, e.g. " + a)
                    .orElse(text.get().contains("/") ? "write the address without a prefix length, e.g. 10.0.1.5"
                            : "write a dotted-quad IPv4 address such as 10.0.1.5");
            error(node, path, e.getMessage(), fix);
            return Optional.empty();
        }
        if (leadingZero(node, path, text.get().trim(), address.toString())) {
            return Optional.empty();
        }
        // Every address field of a topology names a host (a node, a pod, a service): none can be in a reserved range.
        Optional<ReservedRange> reserved = ReservedRange.of(address);
        if (reserved.isPresent()) {
            error(node, path, address + " cannot be a host's address: it is " + reserved.get().description(),
                    "give the host a unicast address of its network, e.g. 172.18.0.5 for a node or one inside the cluster's CIDRs");
            return Optional.empty();
        }
        return Optional.of(address);
    }

    /**
     * Whether an octet is written with a leading zero ({@code 172.018.0.2}), reported if so: inet_aton and
     * many tools read such an octet as octal (018 is no number there, 010 is 8), so the address a reader
     * sees would not be the one meant.
     */
    private boolean leadingZero(Node node, String path, String written, String canonical) {
        for (String octet : written.split("[./]", -1)) {
            if (octet.length() > 1 && octet.charAt(0) == '0') {
                error(node, path, "'" + written + "' writes octet " + octet + " with a leading zero, which some tools read as octal",
                        "write " + canonical + " if the octets are decimal");
                return true;
            }
        }
        return false;
    }

    /** A CIDR; unlike {@link Ipv4Prefix#parse} a bare address is refused, since a /32 pod or service CIDR is never meant. */
    Optional<Ipv4Prefix> prefix(Node node, String path) {
        return prefix(node, path, false);
    }

    private Optional<Ipv4Prefix> prefix(Node node, String path, boolean linkLocalAllowed) {
        Optional<String> read = text(node, path);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        String text = read.get().trim();
        int slash = text.indexOf('/');
        if (slash < 0) {
            error(node, path, "'" + text + "' is not a CIDR: it has no prefix length", isAddress(text)
                    ? "write network/length, e.g. " + text + "/24 (check the length you mean)"
                    : "write network/length with a dotted-quad network, e.g. 10.244.0.0/16");
            return Optional.empty();
        }
        Ipv4Address network;
        int length;
        try {
            network = Ipv4Address.parse(text.substring(0, slash));
            length = Integer.parseInt(text.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            error(node, path, "'" + text + "' is not a CIDR", "write network/length with a dotted-quad network, e.g. 10.244.0.0/16");
            return Optional.empty();
        }
        if (length < 0 || length > 32) {
            error(node, path, "'" + text + "' has prefix length " + length + ", outside 0..32", "write a length between 0 and 32");
            return Optional.empty();
        }
        Ipv4Prefix masked = Ipv4Prefix.containing(network, length);
        if (!masked.network().equals(network)) {
            error(node, path, "'" + text + "' has host bits set: the network of " + network + " with length " + length + " is " + masked,
                    "write " + masked + " (or a longer prefix length if you meant a smaller network)");
            return Optional.empty();
        }
        if (leadingZero(node, path, text, masked.toString())) {
            return Optional.empty();
        }
        // Every CIDR of a topology is a network of hosts (pods, services, global IPs).
        Optional<ReservedRange> reserved = ReservedRange.overlapping(masked)
                .filter(range -> !(linkLocalAllowed && range == ReservedRange.LINK_LOCAL && ReservedRange.LINK_LOCAL.range().contains(masked)));
        if (reserved.isPresent()) {
            error(node, path, masked + " cannot be a network of hosts: it holds addresses of " + reserved.get().description(),
                    "use a private network such as 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16, or 100.64.0.0/10 for global IPs");
            return Optional.empty();
        }
        return Optional.of(masked);
    }

    private static boolean isAddress(String text) {
        try {
            Ipv4Address.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** How a node looks, for messages: the value itself for scalars, "a list" or "a mapping" otherwise. */
    static String describe(Node node) {
        if (node instanceof ScalarNode scalar) {
            if (YamlMapping.isNull(node)) {
                return "nothing";
            }
            return "'" + scalar.getValue() + "'";
        }
        return node instanceof SequenceNode ? "a list" : "a mapping";
    }
}
