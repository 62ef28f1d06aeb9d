package io.periscope.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;

/**
 * A network device's byte counters as {@code ip -j -s link show dev DEV} prints them
 * ({@code stats64}): every byte the device received and sent, headers and tunnel encapsulation
 * included, whatever the traffic. Two readings apart give what crossed it in between.
 */
public record LinkBytes(long received, long sent) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public LinkBytes minus(LinkBytes earlier) {
        return new LinkBytes(received - earlier.received, sent - earlier.sent);
    }

    /** @throws IllegalArgumentException when the text is not {@code ip -j -s link}'s output for one device */
    public static LinkBytes parse(String json) {
        try {
            JsonNode link = JSON.readTree(json).path(0);
            JsonNode stats = link.path("stats64");
            if (stats.isMissingNode()) {
                throw new IllegalArgumentException("no stats64 in ip -j -s link's output: " + json.strip());
            }
            return new LinkBytes(stats.path("rx").path("bytes").asLong(), stats.path("tx").path("bytes").asLong());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read ip -j -s link's output: " + e.getMessage(), e);
        }
    }
}
