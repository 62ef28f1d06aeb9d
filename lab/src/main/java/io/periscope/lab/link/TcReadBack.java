package io.periscope.lab.link;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.net.Ipv4Address;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what {@code tc} shows of a namespace's devices into the lines {@link TcShaping#expected}
 * writes: {@code tc -j qdisc show} (every device at once), {@code tc -d class show dev D} (text: this
 * iproute2 prints no JSON for classes) and {@code tc -j filter show dev D parent 2:}. Only the lab's
 * tree is described: qdiscs under a {@code tbf 1:} root, its htb classes and u32 filters; the
 * hash-reset program's {@code clsact} and any other qdisc beside the root are no business of the links.
 */
public final class TcReadBack {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TcReadBack() {
    }

    /**
     * One device's root and, when the root is the lab's, the lines describing its tree.
     *
     * @param rootKind   the root qdisc's kind ({@code noqueue} for a veth left alone)
     * @param rootHandle its handle
     * @param lines      qdisc lines of the tree (the root's included); the classes and filters are added by {@link #withClasses}
     */
    public record DeviceTc(String device, String rootKind, String rootHandle, List<String> lines) {

        public DeviceTc {
            lines = List.copyOf(lines);
        }

        /** Whether the root is one the lab builds (a {@code tbf} of handle {@code 1:}), which the link layer owns. */
        public boolean labRoot() {
            return rootKind.equals("tbf") && rootHandle.equals(TcShaping.ROOT);
        }

        /** Whether the root is the one a veth starts with, which needs no deleting. */
        public boolean defaultRoot() {
            return rootKind.equals("noqueue") || rootKind.isEmpty();
        }

        public DeviceTc withClasses(String classText, String filterJson) {
            List<String> all = new ArrayList<>(lines);
            all.addAll(classes(classText));
            all.addAll(filters(filterJson));
            return new DeviceTc(device, rootKind, rootHandle, all.stream().sorted().toList());
        }
    }

    /** Every device of a {@code tc -j qdisc show} of a whole namespace, by name. */
    public static Map<String, DeviceTc> qdiscs(String json) {
        Map<String, String> rootKinds = new LinkedHashMap<>();
        Map<String, String> rootHandles = new LinkedHashMap<>();
        Map<String, List<String>> lines = new LinkedHashMap<>();
        for (JsonNode qdisc : array(json)) {
            String device = qdisc.path("dev").asText();
            String kind = qdisc.path("kind").asText();
            String handle = qdisc.path("handle").asText();
            lines.computeIfAbsent(device, d -> new ArrayList<>());
            rootKinds.putIfAbsent(device, "");
            rootHandles.putIfAbsent(device, "");
            if (qdisc.path("root").asBoolean(false)) {
                rootKinds.put(device, kind);
                rootHandles.put(device, handle);
                if (kind.equals("tbf")) {
                    lines.get(device).add(qdisc(kind, handle, "root", "rate " + qdisc.path("options").path("rate").asText()));
                }
                continue;
            }
            String parent = qdisc.path("parent").asText();
            if (parent.startsWith("ffff:")) {
                continue;    // ingress or clsact: not a link's
            }
            JsonNode options = qdisc.path("options");
            String detail = switch (kind) {
                case "htb" -> "default " + options.path("default").asText();
                case "pfifo", "bfifo" -> "limit " + options.path("limit").asText();
                default -> options.toString();
            };
            lines.get(device).add(qdisc(kind, handle, parent, detail));
        }
        Map<String, DeviceTc> devices = new LinkedHashMap<>();
        lines.forEach((device, list) -> devices.put(device, new DeviceTc(device, rootKinds.get(device), rootHandles.get(device),
                list.stream().sorted().toList())));
        return devices;
    }

    /** The htb classes of {@code tc -d class show dev D}: id, parent, leaf, quantum, rate and ceil. */
    static List<String> classes(String text) {
        List<String> classes = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] words = line.trim().split("\\s+");
            if (words.length < 3 || !words[0].equals("class") || !words[1].equals("htb")) {
                continue;
            }
            String id = words[2];
            String parent = value(words, "parent", "root");
            String leaf = value(words, "leaf", "");
            int quantum = Integer.parseInt(value(words, "quantum", "0"));
            classes.add(htbClass(id, parent, leaf, leaf.isEmpty() ? 0 : quantum, value(words, "rate", "?"), value(words, "ceil", "?")));
        }
        return classes;
    }

    /** The u32 filters of {@code tc -j filter show dev D parent 2:} that send a packet to a class. */
    static List<String> filters(String json) {
        List<String> filters = new ArrayList<>();
        for (JsonNode filter : array(json)) {
            JsonNode options = filter.path("options");
            if (!options.has("flowid")) {
                continue;    // the u32 hash tables' own entries
            }
            JsonNode match = options.path("match");
            String flowid = options.path("flowid").asText();
            if (filter.path("kind").asText().equals("u32") && match.path("off").asInt(-1) == 16 && match.path("mask").asText().equals("ffffffff")) {
                long value = Long.parseLong(match.path("value").asText(), 16);
                filters.add(filter(Ipv4Address.parse((value >>> 24) + "." + (value >>> 16 & 0xff) + "." + (value >>> 8 & 0xff) + "." + (value & 0xff)),
                        flowid));
            } else {
                filters.add("filter " + filter.path("kind").asText() + " " + options + " flowid " + flowid);
            }
        }
        return filters;
    }

    static String qdisc(String kind, String handle, String parent, String detail) {
        return "qdisc " + kind + " " + handle + " parent " + parent + " " + detail;
    }

    static String htbClass(String id, String parent, String leaf, int quantum, String rate, String ceil) {
        return "class htb " + id + " parent " + parent + (leaf.isEmpty() ? "" : " leaf " + leaf) + (quantum == 0 ? "" : " quantum " + quantum)
                + " rate " + rate + " ceil " + ceil;
    }

    static String filter(Ipv4Address destination, String flowid) {
        return "filter u32 dst " + destination + "/32 flowid " + flowid;
    }

    /** The word after {@code key}, or {@code otherwise} when there is no such key (tc writes {@code root} for no parent). */
    private static String value(String[] words, String key, String otherwise) {
        for (int i = 0; i < words.length - 1; i++) {
            if (words[i].equals(key)) {
                return words[i + 1];
            }
        }
        return otherwise;
    }

    private static List<JsonNode> array(String json) {
        if (json.isBlank()) {
            return List.of();
        }
        try {
            JsonNode root = JSON.readTree(json);
            List<JsonNode> all = new ArrayList<>();
            root.forEach(all::add);
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException("tc printed what is not JSON: " + json.strip(), e);
        }
    }
}
