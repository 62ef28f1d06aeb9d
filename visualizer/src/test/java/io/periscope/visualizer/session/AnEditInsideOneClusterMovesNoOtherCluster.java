package io.periscope.visualizer.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under {@code serve}, a save that adds a pod, a node or an export to one cluster changes that cluster's
 * box and leaves every other cluster, and every host in it, where it was drawn before the save, even
 * though the edited cluster grew. Only a cluster that the growth would cover slides right, whole.
 */
class AnEditInsideOneClusterMovesNoOtherCluster {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static final String MORE_PODS = """
                  - {name: client, namespace: default, node: worker-1, ip: 10.0.128.4, labels: {app: client}}
                  - {name: batch-0, namespace: default, node: worker-1, ip: 10.0.128.40, labels: {app: batch}}
                  - {name: batch-1, namespace: default, node: worker-1, ip: 10.0.128.41, labels: {app: batch}}
            """;

    private static final String MORE_NODES = """
                  - {name: worker-1, ip: 172.18.0.10, cniIP: 10.0.128.1}
                  - {name: worker-3, ip: 172.18.0.14, cniIP: 10.0.129.1}
            """;

    private static final String AN_EXPORT = """
                  - {name: client, namespace: default, node: worker-1, ip: 10.0.128.4, labels: {app: client}}
                services:
                  - {name: client-api, namespace: default, clusterIP: 100.0.0.140, selector: {app: client}, ports: [{port: 8080, targetPort: 8080, protocol: TCP}]}
                exports: [default/client-api]
            """;

    @Test
    void addingPodsNodesOrAnExportToCluster1LeavesCluster2WhereItWas() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String original = Files.readString(file);
        String pod = "      - {name: client, namespace: default, node: worker-1, ip: 10.0.128.4, labels: {app: client}}\n";
        String node = "      - {name: worker-1, ip: 172.18.0.10, cniIP: 10.0.128.1}\n";
        assertThat(original).contains(pod, node);
        Workspace workspace = new Workspace(file);
        Map<String, String> before = boxes(workspace, "cluster2");
        String cluster1Before = boxes(workspace, "cluster1").get("cluster1");

        for (String edited : List.of(original.replace(pod, MORE_PODS), original.replace(node, MORE_NODES), original.replace(pod, AN_EXPORT))) {
            Files.writeString(file, edited);
            assertThat(workspace.reload()).isTrue();
            assertThat(workspace.state()).as(workspace.document(List.of())).isInstanceOf(Workspace.Ready.class);
            assertThat(boxes(workspace, "cluster2")).as("cluster2 after an edit of cluster1").isEqualTo(before);
            Files.writeString(file, original);
            assertThat(workspace.reload()).isTrue();
        }
        Files.writeString(file, original.replace(pod, MORE_PODS));
        workspace.reload();
        assertThat(boxes(workspace, "cluster1").get("cluster1")).as("the edit did change cluster1's box").isNotEqualTo(cluster1Before);
        // And failing a gateway draws at the same places.
        JsonNode failed = JSON.readTree(workspace.document(List.of("cluster1/gw-1"))).path("topology");
        assertThat(boxes(failed, "cluster2")).isEqualTo(before);
    }

    @Test
    void growingTheMiddleClusterOfThreeKeepsTheOthersOrSlidesOnlyWhatItCovers() throws Exception {
        Path file = ExampleFiles.copy("on-premise-vxlan-cloud-wireguard.yaml", dir);
        String original = Files.readString(file);
        String pod = "      - {name: inventory-0, namespace: stock, node: onprem2-worker, ip: 10.22.1.10, labels: {app: inventory}}\n";
        assertThat(original).contains(pod);
        Workspace workspace = new Workspace(file);
        Map<String, Map<String, String>> before = new LinkedHashMap<>();
        for (String cluster : List.of("onprem1", "onprem2", "cloud")) {
            before.put(cluster, boxes(workspace, cluster));
        }
        StringBuilder pods = new StringBuilder(pod);
        for (int i = 1; i <= 3; i++) {
            pods.append(pod.replace("inventory-0", "inventory-" + i).replace("10.22.1.10", "10.22.1.1" + i));
        }
        Files.writeString(file, original.replace(pod, pods));
        assertThat(workspace.reload()).isTrue();
        Map<String, String> middle = boxes(workspace, "onprem2");
        assertThat(middle.get("onprem2")).isNotEqualTo(before.get("onprem2").get("onprem2"));
        int slid = 0;
        for (String other : List.of("onprem1", "cloud")) {
            Map<String, String> was = before.get(other);
            Map<String, String> now = boxes(workspace, other);
            if (!covered(was.get(other), middle.get("onprem2"))) {
                assertThat(now).as(other + ", which the growth does not reach").isEqualTo(was);
                continue;
            }
            // Slid right, whole: same row, clear of the grown cluster, every host moved by the same amount.
            slid++;
            double dx = numbers(now.get(other))[0] - numbers(was.get(other))[0];
            assertThat(numbers(now.get(other))[0]).isGreaterThanOrEqualTo(numbers(middle.get("onprem2"))[0] + numbers(middle.get("onprem2"))[2]);
            for (String id : was.keySet()) {
                double[] a = numbers(was.get(id));
                double[] b = numbers(now.get(id));
                assertThat(b[0] - a[0]).as(id).isCloseTo(dx, org.assertj.core.data.Offset.offset(0.11));
                assertThat(b[1]).as(id).isEqualTo(a[1]);
            }
        }
        assertThat(slid).as("the grown middle cluster reaches at most one neighbour").isLessThanOrEqualTo(1);
    }

    /** Whether {@code box}, where it was, lies under the grown cluster (closer than the 20 units clusters keep). */
    private static boolean covered(String box, String grown) {
        double[] b = numbers(box);
        double[] g = numbers(grown);
        return b[0] < g[0] + g[2] + 20 && g[0] < b[0] + b[2] + 20 && b[1] < g[1] + g[3] + 20 && g[1] < b[1] + b[3] + 20;
    }

    private static double[] numbers(String box) {
        String[] parts = box.split("[, x]");
        return new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1]), Double.parseDouble(parts[2]), Double.parseDouble(parts[3])};
    }

    private static Map<String, String> boxes(Workspace workspace, String cluster) throws Exception {
        return boxes(JSON.readTree(workspace.document(List.of())).path("topology"), cluster);
    }

    /** The cluster's box and each of its hosts' boxes, by name or id. */
    private static Map<String, String> boxes(JsonNode topology, String name) {
        Map<String, String> boxes = new LinkedHashMap<>();
        for (JsonNode cluster : topology.path("clusters")) {
            if (cluster.path("name").asText().equals(name)) {
                boxes.put(name, box(cluster));
                cluster.path("hosts").forEach(host -> boxes.put(host.path("id").asText(), box(host)));
            }
        }
        assertThat(boxes).as(name).isNotEmpty();
        return boxes;
    }

    private static String box(JsonNode node) {
        return node.path("x").asText() + "," + node.path("y").asText() + " " + node.path("w").asText() + "x" + node.path("h").asText();
    }
}
