package io.periscope.kubernetes.broker;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.periscope.model.globalnet.GlobalCidrAllocator;
import io.periscope.model.net.Ipv4Prefix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker's Globalnet settings and its record of every cluster's GlobalCIDR, kept where upstream
 * keeps them: the ConfigMap {@value #CONFIG_MAP_NAME} in the broker's namespace, with upstream's
 * keys ({@code globalnetEnabled}, {@code globalnetCidrRange}, {@code globalnetClusterSize},
 * {@code clusterinfo}: a JSON list of {@code {cluster_id, global_cidr: [...]}}). The record is the
 * one shared object every cluster's broker sync writes, so it is also where they serialize: each
 * update carries the resourceVersion it read.
 *
 * @param clusters each cluster's GlobalCIDR as recorded, in record order
 */
public record GlobalnetInfo(boolean enabled, Ipv4Prefix cidr, int clusterSize, Map<String, Ipv4Prefix> clusters) {

    public static final String CONFIG_MAP_NAME = "submariner-globalnet-info";
    static final String ENABLED_KEY = "globalnetEnabled";
    static final String CIDR_KEY = "globalnetCidrRange";
    static final String CLUSTER_SIZE_KEY = "globalnetClusterSize";
    static final String CLUSTER_INFO_KEY = "clusterinfo";

    private static final ObjectMapper JSON = new ObjectMapper();

    public GlobalnetInfo {
        clusters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(clusters));
    }

    /** One entry of {@code clusterinfo}, spelled as upstream spells it. */
    record ClusterInfo(@JsonProperty("cluster_id") String clusterId, @JsonProperty("global_cidr") List<String> globalCidr) {
    }

    /**
     * Reads the ConfigMap.
     *
     * @throws IllegalArgumentException naming the key that does not read, and how to write it
     */
    public static GlobalnetInfo read(ConfigMap configMap) {
        Map<String, String> data = configMap.getData() == null ? Map.of() : configMap.getData();
        String where = "ConfigMap " + configMap.getMetadata().getNamespace() + "/" + configMap.getMetadata().getName();
        boolean enabled = "true".equalsIgnoreCase(unquoted(data.get(ENABLED_KEY)));
        Map<String, Ipv4Prefix> clusters = clusters(data.get(CLUSTER_INFO_KEY), where);
        if (!enabled) {
            return new GlobalnetInfo(false, null, 0, clusters);
        }
        Ipv4Prefix cidr;
        try {
            cidr = Ipv4Prefix.parse(unquoted(data.get(CIDR_KEY)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " " + CIDR_KEY + ": " + e.getMessage() + "; set it to the cluster set's Globalnet CIDR, e.g. \"242.0.0.0/8\"");
        }
        int size;
        try {
            size = Integer.parseInt(unquoted(data.get(CLUSTER_SIZE_KEY)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + " " + CLUSTER_SIZE_KEY + " '" + data.get(CLUSTER_SIZE_KEY)
                    + "' is not a number; set it to the addresses per cluster, e.g. 65536");
        }
        GlobalCidrAllocator.clusterSizeProblem(size, cidr).ifPresent(problem -> {
            // The allocator words it for the topology file; name this ConfigMap's keys instead.
            throw new IllegalArgumentException(where + ": " + problem.replace("globalnet.clusterSize", CLUSTER_SIZE_KEY)
                    .replace("the global range", CIDR_KEY) + "; set " + CLUSTER_SIZE_KEY + " to a power of two no larger than " + CIDR_KEY);
        });
        return new GlobalnetInfo(true, cidr, size, clusters);
    }

    /**
     * A new broker's data, as {@code subctl deploy-broker --globalnet} writes it (and
     * {@code deploy/broker/globalnet-info.yaml}): Globalnet on, the range JSON-encoded, no cluster
     * recorded yet.
     */
    public static Map<String, String> brokerData(Ipv4Prefix cidr, int clusterSize) {
        return Map.of(ENABLED_KEY, "true", CIDR_KEY, "\"" + cidr + "\"", CLUSTER_SIZE_KEY, Integer.toString(clusterSize), CLUSTER_INFO_KEY, "[]");
    }

    /** The ConfigMap's data with {@code clusterId}'s GlobalCIDR recorded (replacing an earlier entry of it); other keys kept. */
    public Map<String, String> dataRecording(Map<String, String> data, String clusterId, Ipv4Prefix globalCidr) {
        List<ClusterInfo> entries = new ArrayList<>();
        boolean replaced = false;
        for (Map.Entry<String, Ipv4Prefix> entry : clusters.entrySet()) {
            if (entry.getKey().equals(clusterId)) {
                entries.add(new ClusterInfo(clusterId, List.of(globalCidr.toString())));
                replaced = true;
            } else {
                entries.add(new ClusterInfo(entry.getKey(), List.of(entry.getValue().toString())));
            }
        }
        if (!replaced) {
            entries.add(new ClusterInfo(clusterId, List.of(globalCidr.toString())));
        }
        Map<String, String> updated = new HashMap<>(data == null ? Map.of() : data);
        try {
            updated.put(CLUSTER_INFO_KEY, JSON.writeValueAsString(entries));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return updated;
    }

    private static Map<String, Ipv4Prefix> clusters(String json, String where) {
        Map<String, Ipv4Prefix> clusters = new LinkedHashMap<>();
        if (json == null || json.isBlank()) {
            return clusters;
        }
        List<ClusterInfo> entries;
        try {
            entries = JSON.readValue(json, new TypeReference<List<ClusterInfo>>() {
            });
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + " " + CLUSTER_INFO_KEY + " is not a JSON list of {\"cluster_id\", \"global_cidr\": [...]}: "
                    + e.getOriginalMessage() + "; correct it or set it to []");
        }
        for (ClusterInfo entry : entries) {
            if (entry.clusterId() == null || entry.globalCidr() == null || entry.globalCidr().isEmpty()) {
                continue;
            }
            try {
                clusters.put(entry.clusterId(), Ipv4Prefix.parse(entry.globalCidr().getFirst()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + " " + CLUSTER_INFO_KEY + ": cluster " + entry.clusterId() + "'s global_cidr: "
                        + e.getMessage() + "; correct the entry or remove it");
            }
        }
        return clusters;
    }

    /** Upstream writes the range JSON-encoded (with quotes); a hand-written ConfigMap may not. */
    private static String unquoted(String value) {
        if (value == null) {
            return null;
        }
        String trimmed = value.strip();
        return trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"") ? trimmed.substring(1, trimmed.length() - 1) : trimmed;
    }
}
