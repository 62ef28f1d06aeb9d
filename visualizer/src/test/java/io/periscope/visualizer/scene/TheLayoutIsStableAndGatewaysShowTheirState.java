package io.periscope.visualizer.scene;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TheLayoutIsStableAndGatewaysShowTheirState {

    private static ClusterSet parse(String yaml) throws Exception {
        return TopologyLoader.parse(yaml, "test.yaml");
    }

    private static JsonNode scene(ClusterSet set, List<String> failed) {
        return TopologyScene.of(set, Planner.plan(set.withoutNodes(failed)), failed);
    }

    /** Every box of the picture, by cluster name or host id. */
    private static Map<String, String> boxes(JsonNode topology) {
        Map<String, String> boxes = new LinkedHashMap<>();
        for (JsonNode cluster : topology.path("clusters")) {
            boxes.put(cluster.path("name").asText(), box(cluster));
            for (JsonNode host : cluster.path("hosts")) {
                boxes.put(host.path("id").asText(), box(host));
            }
        }
        return boxes;
    }

    private static String box(JsonNode node) {
        return node.path("x").asText() + "," + node.path("y").asText() + " " + node.path("w").asText() + "x" + node.path("h").asText();
    }

    @Test
    void anUnrelatedEditMovesNothing() throws Exception {
        String yaml = Files.readString(ExampleFiles.example("mag-globalnet.yaml"));
        Map<String, String> before = boxes(scene(parse(yaml), List.of()));
        Map<String, String> again = boxes(scene(parse(yaml), List.of()));
        Map<String, String> edited = boxes(scene(parse(yaml
                .replace("name: client-to-nginx", "name: client-calls-nginx")
                .replace("labels: {location: cloud}", "labels: {location: cloud, tier: gold}")
                .replace("clusterIP: 100.0.0.132", "clusterIP: 100.0.0.133")), List.of()));
        assertThat(before).hasSize(10);
        assertThat(again).isEqualTo(before);
        assertThat(edited).isEqualTo(before);
    }

    @Test
    void failingAGatewayChangesItsStateButNoPosition() throws Exception {
        ClusterSet set = TopologyLoader.load(ExampleFiles.example("mag-globalnet.yaml"));
        JsonNode failed = scene(set, List.of("cluster2/gw-3"));
        assertThat(boxes(failed)).isEqualTo(boxes(scene(set, List.of())));
        assertThat(states(failed)).containsEntry("cluster2/gw-3", "failed").containsEntry("cluster2/gw-4", "active")
                .containsEntry("cluster1/gw-1", "active");
    }

    @Test
    void withOneActiveGatewayTheOthersStandByAndTakeOverWhenItFails() throws Exception {
        ClusterSet set = parse(Files.readString(ExampleFiles.example("mag-globalnet.yaml"))
                .replace("multiActiveGateways: true", "multiActiveGateways: false"));
        assertThat(states(scene(set, List.of()))).containsEntry("cluster1/gw-1", "active").containsEntry("cluster1/gw-2", "standby")
                .containsEntry("cluster1/worker-1", "up").containsEntry("cluster1/default/client", "up");
        assertThat(states(scene(set, List.of("cluster1/gw-1")))).containsEntry("cluster1/gw-1", "failed")
                .containsEntry("cluster1/gw-2", "active");
    }

    @Test
    void cablesCarryTheirDriverAndUnconnectedPairsTheirReason() throws Exception {
        JsonNode topology = scene(TopologyLoader.load(ExampleFiles.example("on-premise-vxlan-cloud-wireguard.yaml")), List.of());
        List<String> cables = new java.util.ArrayList<>();
        topology.path("cables").forEach(c -> cables.add(c.path("left").asText() + "-" + c.path("right").asText() + " " + c.path("driver").asText()));
        assertThat(cables).contains("onprem1-onprem2 vxlan", "onprem2-cloud wireguard");
        JsonNode client = scene(TopologyLoader.load(ExampleFiles.example("client-server.yaml")), List.of());
        assertThat(client.path("unconnected")).isNotEmpty();
        assertThat(client.path("unconnected").get(0).path("reason").asText()).contains("no connectivity policy");
    }

    private static Map<String, String> states(JsonNode topology) {
        Map<String, String> states = new LinkedHashMap<>();
        for (JsonNode cluster : topology.path("clusters")) {
            for (JsonNode host : cluster.path("hosts")) {
                states.put(host.path("id").asText(), host.path("state").asText());
            }
        }
        return states;
    }
}
