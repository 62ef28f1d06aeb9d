package io.periscope.dataplane.ovs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Reads {@code ovs-vsctl --format=json --data=json list Bridge -- list Port -- list Interface -- list
 * Open_vSwitch} (one JSON object per table and line, OVSDB's value encoding: {@code ["uuid", U]},
 * {@code ["set", [...]]} with a one-element set as the bare element, {@code ["map", [[k, v], ...]]})
 * and {@code ip -j addr show dev D}. Columns are found by their heading.
 */
final class VsctlListParser {

    private static final ObjectMapper JSON = new ObjectMapper();

    private VsctlListParser() {
    }

    /** The bridges with their interfaces, the integration bridge's name, and the bridge mappings in order. */
    record Database(Map<String, OvsPicture.Bridge> bridges, String integrationBridge, List<String> mappings) {
    }

    /** A device's IPv4 addresses ({@code A/L}) and whether it is administratively up. */
    record Link(List<String> cidrs, boolean up) {
    }

    static Database parse(String output) {
        List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
        if (lines.size() != 4) {
            throw new IllegalArgumentException("ovs-vsctl printed " + lines.size() + " tables, expected 4 (Bridge, Port, Interface, Open_vSwitch)");
        }
        List<Map<String, JsonNode>> bridges = rows(lines.get(0));
        Map<String, Map<String, JsonNode>> ports = byUuid(rows(lines.get(1)));
        Map<String, Map<String, JsonNode>> interfaces = byUuid(rows(lines.get(2)));
        Map<String, OvsPicture.Bridge> found = new TreeMap<>();
        for (Map<String, JsonNode> bridge : bridges) {
            String name = bridge.get("name").asText();
            String datapath = set(bridge.get("datapath_type")).stream().findFirst().filter(s -> !s.isEmpty()).orElse("system");
            Map<String, OvsPicture.Port> members = new TreeMap<>();
            for (String portUuid : set(bridge.get("ports"))) {
                Map<String, JsonNode> port = ports.get(portUuid);
                if (port == null) {
                    continue;
                }
                for (String interfaceUuid : set(port.get("interfaces"))) {
                    Map<String, JsonNode> iface = interfaces.get(interfaceUuid);
                    if (iface != null) {
                        String ifaceName = iface.get("name").asText();
                        List<String> mtu = set(iface.get("mtu_request"));
                        members.put(ifaceName, new OvsPicture.Port(ifaceName, iface.get("type").asText(),
                                set(iface.get("mac")).stream().findFirst(),
                                mtu.isEmpty() ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(mtu.getFirst()))));
                    }
                }
            }
            found.put(name, new OvsPicture.Bridge(name, datapath, members));
        }
        List<Map<String, JsonNode>> system = rows(lines.get(3));
        Map<String, String> externalIds = system.isEmpty() ? Map.of() : map(system.getFirst().get("external_ids"));
        String mappings = externalIds.getOrDefault("ovn-bridge-mappings", "").strip();
        return new Database(found, externalIds.getOrDefault("ovn-bridge", "br-int"),
                mappings.isEmpty() ? List.of() : Arrays.stream(mappings.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList());
    }

    static Link link(String output) {
        JsonNode device = read(output).path(0);
        List<String> cidrs = new ArrayList<>();
        for (JsonNode address : device.path("addr_info")) {
            if (address.path("family").asText().equals("inet")) {
                cidrs.add(address.path("local").asText() + "/" + address.path("prefixlen").asInt());
            }
        }
        boolean up = false;
        for (JsonNode flag : device.path("flags")) {
            up |= flag.asText().equals("UP");
        }
        return new Link(cidrs, up);
    }

    private static List<Map<String, JsonNode>> rows(String line) {
        JsonNode table = read(line);
        List<String> headings = new ArrayList<>();
        table.path("headings").forEach(h -> headings.add(h.asText()));
        List<Map<String, JsonNode>> rows = new ArrayList<>();
        for (JsonNode data : table.path("data")) {
            Map<String, JsonNode> row = new HashMap<>();
            for (int i = 0; i < headings.size(); i++) {
                row.put(headings.get(i), data.path(i));
            }
            rows.add(row);
        }
        return rows;
    }

    private static Map<String, Map<String, JsonNode>> byUuid(List<Map<String, JsonNode>> rows) {
        Map<String, Map<String, JsonNode>> byUuid = new HashMap<>();
        rows.forEach(r -> byUuid.put(atom(r.get("_uuid")), r));
        return byUuid;
    }

    /** A column's values: a set's elements, or the one bare element. */
    private static List<String> set(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return List.of();
        }
        if (value.isArray() && value.size() == 2 && value.get(0).asText().equals("set")) {
            List<String> elements = new ArrayList<>();
            value.get(1).forEach(e -> elements.add(atom(e)));
            return elements;
        }
        return List.of(atom(value));
    }

    private static Map<String, String> map(JsonNode value) {
        Map<String, String> map = new TreeMap<>();
        if (value != null && value.isArray() && value.size() == 2 && value.get(0).asText().equals("map")) {
            value.get(1).forEach(pair -> map.put(atom(pair.get(0)), atom(pair.get(1))));
        }
        return map;
    }

    /** A uuid's id, or a string's or number's text. */
    private static String atom(JsonNode value) {
        if (value.isArray() && value.size() == 2 && value.get(0).asText().equals("uuid")) {
            return value.get(1).asText();
        }
        return value.asText();
    }

    private static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + text.lines().findFirst().orElse(""), e);
        }
    }
}
