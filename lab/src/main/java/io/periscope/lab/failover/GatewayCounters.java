package io.periscope.lab.failover;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which gateway each stream crosses, counted on the gateways themselves: an nftables table of the
 * measurement's own in each gateway's namespace counts, per stream, the packets arriving there (by
 * the stream's source address and port, before any NAT and before a blackhole's drop, so a stream
 * still sent straight to a dead gateway shows there; one that reaches it through a tunnel, as a
 * worker's does, is counted once unwrapped, and a blackhole drops the tunnel's packet before that,
 * so it shows nowhere). Two readings apart give each stream's gateways in that interval. The table
 * is removed when the measurement ends.
 */
final class GatewayCounters implements AutoCloseable {

    static final String TABLE = "periscope_lab_count";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CommandRunner runner;
    private final Map<String, String> gateways;
    private final List<UdpStreams.Stream> streams;
    private int tcpSlots;

    /** @param gateways namespace of each gateway, by {@code cluster/node} */
    GatewayCounters(CommandRunner runner, Map<String, String> gateways, List<UdpStreams.Stream> streams) {
        this.runner = runner;
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
            runner.run(Command.of("nft", "-f", "-").inNamespace(namespace).withStdin(table.toString()));
        }
    }

    /**
     * Counts the TCP connections too, once connected (their source ports are the kernel's choice):
     * a connection's packets are at index {@code streams + id} of a reading.
     */
    void addTcp(List<TcpConnections.Connection> connections, Map<Integer, Integer> ports) {
        tcpSlots = connections.size();
        StringBuilder rules = new StringBuilder();
        for (TcpConnections.Connection connection : connections) {
            Integer port = ports.get(connection.id());
            if (port != null) {
                rules.append("add rule inet ").append(TABLE).append(" arriving ip saddr ").append(connection.sourceIp())
                        .append(" tcp sport ").append(port).append(" counter comment \"t").append(connection.id()).append("\"\n");
            }
        }
        if (rules.isEmpty()) {
            return;
        }
        for (String namespace : gateways.values()) {
            runner.run(Command.of("nft", "-f", "-").inNamespace(namespace).withStdin(rules.toString()));
        }
    }

    int tcpIndex(int connection) {
        return streams.size() + connection;
    }

    /** Packets counted so far, per gateway and stream (then connection). */
    Map<String, long[]> read() {
        Map<String, long[]> counts = new HashMap<>();
        gateways.forEach((gateway, namespace) -> {
            long[] perStream = new long[streams.size() + tcpSlots];
            String json = runner.run(Command.of("nft", "-j", "list", "table", "inet", TABLE).inNamespace(namespace)).stdout();
            try {
                for (JsonNode item : JSON.readTree(json).path("nftables")) {
                    JsonNode rule = item.path("rule");
                    String comment = rule.path("comment").asText();
                    if (rule.isMissingNode() || comment.isEmpty() || (comment.charAt(0) != 's' && comment.charAt(0) != 't')) {
                        continue;
                    }
                    int id = Integer.parseInt(comment.substring(1)) + (comment.charAt(0) == 't' ? streams.size() : 0);
                    if (id >= perStream.length) {
                        continue;
                    }
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

    /**
     * The gateways that carried a stream's packets on from the failure ({@code failure}, the reading
     * just before it) to {@code last}: like {@link #crossed}, except that until {@code healed} (the
     * reading just after the heal; to the end when there was none) the {@code swallowing} node's
     * count is left out, since a node that drops whatever reaches it (a blackhole) carried nothing on,
     * and a segment it swallowed can neither have reached a server nor have been reset there.
     */
    static Set<String> carried(Map<String, long[]> failure, Optional<Map<String, long[]>> healed, Map<String, long[]> last, int stream,
                               Optional<String> swallowing) {
        Set<String> carried = new TreeSet<>(crossed(failure, healed.orElse(last), stream));
        swallowing.ifPresent(carried::remove);
        healed.ifPresent(heal -> carried.addAll(crossed(heal, last, stream)));
        return carried;
    }

    @Override
    public void close() {
        for (String namespace : gateways.values()) {
            runner.execute(Command.of("nft", "delete", "table", "inet", TABLE).inNamespace(namespace));
        }
    }
}
