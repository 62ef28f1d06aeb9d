package io.periscope.lab.failover;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.lab.shell.Invocation;
import io.periscope.lab.shell.Shell;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which gateway each stream crosses, counted on the gateways themselves: an nftables table of the
 * measurement's own in each gateway's namespace counts, per stream, the packets arriving there (by
 * the stream's source address and port, before any NAT and before a blackhole's drop, so a stream
 * still sent to a dead gateway shows there). Two readings apart give each stream's gateways in that
 * interval. The table is removed when the measurement ends.
 */
final class GatewayCounters implements AutoCloseable {

    static final String TABLE = "periscope_lab_count";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Shell shell;
    private final Map<String, String> gateways;
    private final List<UdpStreams.Stream> streams;

    /** @param gateways namespace of each gateway, by {@code cluster/node} */
    GatewayCounters(Shell shell, Map<String, String> gateways, List<UdpStreams.Stream> streams) {
        this.shell = shell;
        this.gateways = new LinkedHashMap<>(gateways);
        this.streams = List.copyOf(streams);
    }

    void install() {
        StringBuilder table = new StringBuilder("table inet " + TABLE + " {\n  chain arriving {\n"
                + "    type filter hook prerouting priority -500; policy accept;\n");
        for (UdpStreams.Stream stream : streams) {
            table.append("    ip saddr ").append(stream.sourceIp()).append(" udp sport ").append(stream.sourcePort())
                    .append(" counter comment \"s").append(stream.id()).append("\"\n");
        }
        table.append("  }\n}\n");
        for (String namespace : gateways.values()) {
            shell.run(Invocation.of("nft", "-f", "-").inNamespace(namespace).withStdin(table.toString()));
        }
    }

    /** Packets counted so far, per gateway and stream. */
    Map<String, long[]> read() {
        Map<String, long[]> counts = new HashMap<>();
        gateways.forEach((gateway, namespace) -> {
            long[] perStream = new long[streams.size()];
            String json = shell.run(Invocation.of("nft", "-j", "list", "table", "inet", TABLE).inNamespace(namespace));
            try {
                for (JsonNode item : JSON.readTree(json).path("nftables")) {
                    JsonNode rule = item.path("rule");
                    if (rule.isMissingNode() || !rule.path("comment").asText().startsWith("s")) {
                        continue;
                    }
                    int id = Integer.parseInt(rule.path("comment").asText().substring(1));
                    for (JsonNode expression : rule.path("expr")) {
                        if (expression.has("counter")) {
                            perStream[id] = expression.path("counter").path("packets").asLong();
                        }
                    }
                }
            } catch (IOException | NumberFormatException e) {
                throw new IllegalStateException("cannot read the counters in " + namespace + ": " + e.getMessage(), e);
            }
            counts.put(gateway, perStream);
        });
        return counts;
    }

    /** The gateways a stream's packets reached between two readings. */
    static Set<String> crossed(Map<String, long[]> earlier, Map<String, long[]> later, int stream) {
        Set<String> crossed = new TreeSet<>();
        later.forEach((gateway, counts) -> {
            if (counts[stream] > earlier.get(gateway)[stream]) {
                crossed.add(gateway);
            }
        });
        return crossed;
    }

    @Override
    public void close() {
        for (String namespace : gateways.values()) {
            shell.execute(Invocation.of("nft", "delete", "table", "inet", TABLE).inNamespace(namespace));
        }
    }
}
