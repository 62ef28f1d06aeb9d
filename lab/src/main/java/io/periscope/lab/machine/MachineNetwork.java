package io.periscope.lab.machine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The IPv4 address space of the machine's own network namespace: its interface addresses (as the
 * networks they are on) and the destinations of its routes. The default route is left out: it
 * covers everything and says nothing about which addresses are in use.
 */
public record MachineNetwork(List<MachinePrefix> prefixes) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public MachineNetwork {
        prefixes = List.copyOf(prefixes);
    }

    /** Reads {@code ip -j addr} and {@code ip -j route} in the namespace the runner runs in (the machine's own). */
    public static MachineNetwork read(CommandRunner runner) {
        return parse(runner.run(Command.of("ip", "-j", "-4", "addr", "show")).stdout(), runner.run(Command.of("ip", "-j", "-4", "route", "show")).stdout());
    }

    public static MachineNetwork parse(String addrJson, String routeJson) {
        List<MachinePrefix> prefixes = new ArrayList<>();
        for (JsonNode link : tree(addrJson)) {
            String device = link.path("ifname").asText();
            for (JsonNode info : link.path("addr_info")) {
                if (!"inet".equals(info.path("family").asText())) {
                    continue;
                }
                Ipv4Address local = Ipv4Address.parse(info.path("local").asText());
                int length = info.path("prefixlen").asInt(32);
                prefixes.add(new MachinePrefix(Ipv4Prefix.containing(local, length), device,
                        "address " + local + "/" + length + " on " + device));
            }
        }
        for (JsonNode route : tree(routeJson)) {
            String dst = route.path("dst").asText();
            if (dst.equals("default") || dst.isEmpty()) {
                continue;
            }
            Ipv4Prefix prefix = Ipv4Prefix.parse(dst);
            if (prefix.length() == 0) {
                continue;
            }
            String device = route.path("dev").asText("");
            String via = route.hasNonNull("gateway") ? " via " + route.get("gateway").asText() : "";
            prefixes.add(new MachinePrefix(prefix, device, "route " + prefix + via + (device.isEmpty() ? "" : " dev " + device)));
        }
        return new MachineNetwork(prefixes);
    }

    private static JsonNode tree(String json) {
        try {
            return json.isBlank() ? JSON.createArrayNode() : JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("ip printed JSON that cannot be read: " + e.getMessage(), e);
        }
    }
}
