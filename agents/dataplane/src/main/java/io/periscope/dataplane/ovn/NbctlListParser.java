package io.periscope.dataplane.ovn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.plan.Names;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads what {@link #TABLES} hold from {@code ovn-nbctl --format=json list T1 -- list T2 ...}: one
 * JSON object per table and line, {@code {"headings": [...], "data": [[...], ...]}}, with OVSDB's
 * value encoding ({@code ["uuid", U]}, {@code ["set", [...]]}, {@code ["map", [[k, v], ...]]}, and
 * a one-element set written as the bare element). Columns are found by their heading, so another
 * schema version's extra or reordered columns do not matter. References become names.
 */
public final class NbctlListParser {

    /** The tables read, in the order the command lists them. */
    public static final List<String> TABLES = List.of("Load_Balancer", "Load_Balancer_Group", "Logical_Switch", "Logical_Switch_Port",
            "Logical_Router", "Logical_Router_Port", "Logical_Router_Policy", "Logical_Router_Static_Route");

    private static final ObjectMapper JSON = new ObjectMapper();

    private NbctlListParser() {
    }

    /** One table's rows: column name to value, per row. */
    private record Table(List<Map<String, JsonNode>> rows) {
    }

    public static NorthboundState parse(String output) {
        List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
        if (lines.size() != TABLES.size()) {
            throw new IllegalArgumentException("ovn-nbctl printed " + lines.size() + " tables, expected " + TABLES.size() + " (" + TABLES + ")");
        }
        Map<String, Table> tables = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            tables.put(TABLES.get(i), table(TABLES.get(i), lines.get(i)));
        }
        Map<String, String> lbNames = names(tables.get("Load_Balancer"));
        Map<String, String> groupNames = names(tables.get("Load_Balancer_Group"));
        List<NorthboundState.Stored> rows = new ArrayList<>();
        for (Map<String, JsonNode> lb : tables.get("Load_Balancer").rows()) {
            TreeMap<String, String> vips = new TreeMap<>(map(lb.get("vips")));
            rows.add(stored(new NbRow.LoadBalancerRow(string(lb.get("name")), string(lb.get("protocol")), vips), lb));
        }
        for (Map<String, JsonNode> group : tables.get("Load_Balancer_Group").rows()) {
            rows.add(stored(new NbRow.LoadBalancerGroupRow(string(group.get("name")), named(set(group.get("load_balancer")), lbNames)), group));
        }
        Map<String, Map<String, JsonNode>> switchPorts = byUuid(tables.get("Logical_Switch_Port"));
        for (Map<String, JsonNode> sw : tables.get("Logical_Switch").rows()) {
            String name = string(sw.get("name"));
            rows.add(stored(new NbRow.SwitchRow(name, named(set(sw.get("load_balancer_group")), groupNames)), sw));
            for (String uuid : set(sw.get("ports"))) {
                Map<String, JsonNode> port = switchPorts.get(uuid);
                if (port != null) {
                    rows.add(stored(new NbRow.SwitchPortRow(name, string(port.get("name")), string(port.get("type")),
                            new TreeMap<>(map(port.get("options"))), set(port.get("addresses"))), port));
                }
            }
        }
        Map<String, Map<String, JsonNode>> routerPorts = byUuid(tables.get("Logical_Router_Port"));
        Map<String, Map<String, JsonNode>> policies = byUuid(tables.get("Logical_Router_Policy"));
        Map<String, Map<String, JsonNode>> routes = byUuid(tables.get("Logical_Router_Static_Route"));
        for (Map<String, JsonNode> router : tables.get("Logical_Router").rows()) {
            String name = string(router.get("name"));
            rows.add(stored(new NbRow.RouterRow(name, Optional.ofNullable(map(router.get("options")).get("chassis")),
                    named(set(router.get("load_balancer_group")), groupNames)), router));
            for (String uuid : set(router.get("ports"))) {
                Map<String, JsonNode> port = routerPorts.get(uuid);
                if (port != null) {
                    rows.add(stored(new NbRow.RouterPortRow(name, string(port.get("name")), string(port.get("mac")), set(port.get("networks"))), port));
                }
            }
            for (String uuid : set(router.get("policies"))) {
                Map<String, JsonNode> policy = policies.get(uuid);
                if (policy != null) {
                    // OVN 20.x kept one next hop in "nexthop"; later versions use "nexthops".
                    List<String> nexthops = set(policy.get("nexthops"));
                    if (nexthops.isEmpty()) {
                        nexthops = set(policy.get("nexthop"));
                    }
                    rows.add(stored(new NbRow.PolicyRow(name, policy.get("priority").asInt(), string(policy.get("match")),
                            string(policy.get("action")), nexthops), policy));
                }
            }
            for (String uuid : set(router.get("static_routes"))) {
                Map<String, JsonNode> route = routes.get(uuid);
                if (route != null) {
                    String prefix = string(route.get("ip_prefix"));
                    List<String> port = set(route.get("output_port"));
                    List<String> policy = set(route.get("policy"));
                    rows.add(stored(new NbRow.RouteRow(name, prefix.contains("/") ? prefix : prefix + "/32", string(route.get("nexthop")),
                            port.stream().findFirst(), policy.isEmpty() ? "dst-ip" : policy.getFirst(),
                            map(route.get("external_ids")).containsKey(Names.OVN_SUBMARINER_EXTERNAL_ID)), route));
                }
            }
        }
        return new NorthboundState(rows);
    }

    private static Table table(String name, String line) {
        JsonNode root;
        try {
            root = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("ovn-nbctl's listing of " + name + " is not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode headings = root.path("headings");
        JsonNode data = root.path("data");
        if (!headings.isArray() || !data.isArray()) {
            throw new IllegalArgumentException("ovn-nbctl's listing of " + name + " lacks headings or data: " + line);
        }
        List<Map<String, JsonNode>> rows = new ArrayList<>();
        for (JsonNode row : data) {
            Map<String, JsonNode> columns = new LinkedHashMap<>();
            for (int i = 0; i < headings.size(); i++) {
                columns.put(headings.get(i).asText(), row.get(i));
            }
            rows.add(columns);
        }
        return new Table(rows);
    }

    private static NorthboundState.Stored stored(NbRow row, Map<String, JsonNode> columns) {
        return new NorthboundState.Stored(row, Optional.of(uuid(columns.get("_uuid"))));
    }

    private static Map<String, Map<String, JsonNode>> byUuid(Table table) {
        Map<String, Map<String, JsonNode>> rows = new HashMap<>();
        table.rows().forEach(r -> rows.put(uuid(r.get("_uuid")), r));
        return rows;
    }

    private static Map<String, String> names(Table table) {
        Map<String, String> names = new HashMap<>();
        table.rows().forEach(r -> names.put(uuid(r.get("_uuid")), string(r.get("name"))));
        return names;
    }

    private static TreeSet<String> named(List<String> uuids, Map<String, String> names) {
        return new TreeSet<>(uuids.stream().map(u -> names.getOrDefault(u, u)).toList());
    }

    private static String uuid(JsonNode value) {
        if (value != null && value.isArray() && value.size() == 2 && "uuid".equals(value.get(0).asText())) {
            return value.get(1).asText();
        }
        throw new IllegalArgumentException("expected a UUID, got " + value);
    }

    /** An atom (a string or a reference) as text; an empty set as the empty string. */
    private static String string(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.isArray()) {
            List<String> elements = set(value);
            return elements.isEmpty() ? "" : elements.getFirst();
        }
        return value.asText();
    }

    /** A set column's elements: a bare atom is a one-element set. */
    private static List<String> set(JsonNode value) {
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (value.isArray() && value.size() == 2 && "set".equals(value.get(0).asText())) {
            List<String> elements = new ArrayList<>();
            value.get(1).forEach(e -> elements.add(atom(e)));
            return elements;
        }
        return List.of(atom(value));
    }

    private static String atom(JsonNode value) {
        if (value.isArray() && value.size() == 2 && ("uuid".equals(value.get(0).asText()) || "named-uuid".equals(value.get(0).asText()))) {
            return value.get(1).asText();
        }
        return value.asText();
    }

    private static Map<String, String> map(JsonNode value) {
        Map<String, String> map = new LinkedHashMap<>();
        if (value != null && value.isArray() && value.size() == 2 && "map".equals(value.get(0).asText())) {
            value.get(1).forEach(pair -> map.put(atom(pair.get(0)), atom(pair.get(1))));
        }
        return map;
    }
}
