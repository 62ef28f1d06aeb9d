package io.periscope.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an iperf3 client printed with {@code -J}: each TCP stream by its local (source) port, as
 * {@code start.connected} names it, with what its sender sent and retransmitted and what the server
 * received ({@code end.streams[].sender} and {@code .receiver}, matched to the connection by socket).
 * iperf3 reports a failure in {@code error} and may still exit 0, so a result with an error is the
 * failure, whatever the exit status.
 */
public record Iperf3Result(List<Stream> streams, double seconds, Optional<String> error) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One TCP stream of the test.
     *
     * @param sourcePort      its local port ({@code --cport} and up)
     * @param sentBytes       what the sender wrote
     * @param receivedBytes   what the server read
     * @param receivedBitsPerSecond what the server read per second of the test: the stream's throughput
     * @param retransmits     segments the sender's kernel retransmitted ({@code tcpi_total_retrans})
     * @param meanRttMicros   the sender's smoothed round-trip time at the end (microseconds; 0 when not reported)
     */
    public record Stream(int sourcePort, long sentBytes, double sentBitsPerSecond, long receivedBytes, double receivedBitsPerSecond,
                         long retransmits, long meanRttMicros) {
    }

    public Iperf3Result {
        streams = List.copyOf(streams);
    }

    public static Iperf3Result failed(String error) {
        return new Iperf3Result(List.of(), 0, Optional.of(error));
    }

    public Optional<Stream> stream(int sourcePort) {
        return streams.stream().filter(s -> s.sourcePort() == sourcePort).findFirst();
    }

    /**
     * @param json the client's standard output
     * @param stderr its standard error, which names the problem when there is no JSON at all
     */
    public static Iperf3Result parse(String json, String stderr) {
        JsonNode root;
        try {
            root = json.isBlank() ? null : JSON.readTree(json);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || !root.isObject()) {
            String why = stderr.strip().isEmpty() ? "iperf3 printed no JSON" : stderr.strip();
            return failed(why);
        }
        Map<Integer, Integer> portsBySocket = new HashMap<>();
        for (JsonNode connected : root.path("start").path("connected")) {
            portsBySocket.put(connected.path("socket").asInt(), connected.path("local_port").asInt());
        }
        List<Stream> streams = new ArrayList<>();
        for (JsonNode stream : root.path("end").path("streams")) {
            JsonNode sender = stream.path("sender");
            JsonNode receiver = stream.path("receiver");
            Integer port = portsBySocket.get(sender.path("socket").asInt());
            if (port == null) {
                continue;
            }
            streams.add(new Stream(port, sender.path("bytes").asLong(), sender.path("bits_per_second").asDouble(),
                    receiver.path("bytes").asLong(), receiver.path("bits_per_second").asDouble(), sender.path("retransmits").asLong(),
                    sender.path("mean_rtt").asLong()));
        }
        Optional<String> error = Optional.ofNullable(root.get("error")).map(JsonNode::asText).filter(e -> !e.isBlank());
        double seconds = root.path("end").path("sum_received").path("seconds").asDouble(root.path("end").path("sum_sent").path("seconds").asDouble());
        return new Iperf3Result(streams, seconds, error);
    }
}
