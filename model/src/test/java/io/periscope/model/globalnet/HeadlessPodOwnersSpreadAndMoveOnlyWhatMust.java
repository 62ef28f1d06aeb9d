package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class HeadlessPodOwnersSpreadAndMoveOnlyWhatMust {

    private static Node gateway(int i) {
        return new Node("gw-" + i, Ipv4Address.parse("172.18.0." + i), Ipv4Address.parse("10.0." + i + ".1"), true, Optional.empty());
    }

    private static Cluster cluster(List<Node> gateways, List<Pod> pods) {
        List<Node> nodes = new ArrayList<>(gateways);
        nodes.add(new Node("worker", Ipv4Address.parse("172.18.0.100"), Ipv4Address.parse("10.0.100.1"), false, Optional.empty()));
        return new Cluster("c1", Map.of(), List.of(Ipv4Prefix.parse("10.0.0.0/16")), List.of(Ipv4Prefix.parse("100.0.0.0/16")),
                Optional.empty(), Cni.KUBE_PROXY, true, 8, GatewayLoadBalancing.MULTIPATH_ROUTES, nodes, pods, List.of(), List.of(), List.of());
    }

    private static List<Pod> pods(int count, String node) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(new Pod("db-" + i, "default", node, Ipv4Address.parse("10.0.200.1").plus(i), Map.of("app", "db"), false));
        }
        return pods;
    }

    @Test
    void threeThousandPodsSpreadOverThreeGatewaysWithinFivePercentOfAThirdEach() {
        List<Pod> pods = pods(3000, "worker");
        Cluster cluster = cluster(List.of(gateway(1), gateway(2), gateway(3)), pods);
        Map<String, Integer> owned = new HashMap<>();
        pods.forEach(p -> owned.merge(HeadlessPodOwners.ownerOf(cluster, p).orElseThrow(), 1, Integer::sum));
        assertThat(owned).containsOnlyKeys("gw-1", "gw-2", "gw-3");
        owned.values().forEach(n -> assertThat(n).isBetween(950, 1050));
    }

    @Test
    void whenAGatewayFailsOnlyItsPodsMoveAndWhenItReturnsTheyComeBack() {
        List<Pod> pods = pods(600, "worker");
        Cluster healthy = cluster(List.of(gateway(1), gateway(2), gateway(3)), pods);
        Cluster failed = cluster(List.of(gateway(1), gateway(3)), pods);
        for (Pod pod : pods) {
            String before = HeadlessPodOwners.ownerOf(healthy, pod).orElseThrow();
            String during = HeadlessPodOwners.ownerOf(failed, pod).orElseThrow();
            if (!before.equals("gw-2")) {
                assertThat(during).as(pod.name() + " of a surviving gateway stays").isEqualTo(before);
            } else {
                assertThat(during).isIn("gw-1", "gw-3");
            }
        }
    }

    @Test
    void aPodOnAnActiveGatewayIsOwnedByThatGateway() {
        List<Pod> pods = pods(50, "gw-2");
        Cluster cluster = cluster(List.of(gateway(1), gateway(2), gateway(3)), pods);
        pods.forEach(p -> assertThat(HeadlessPodOwners.ownerOf(cluster, p)).contains("gw-2"));
    }

    @Test
    void aPodComingOrGoingMovesNoOtherPod() {
        List<Pod> pods = pods(200, "worker");
        Cluster all = cluster(List.of(gateway(1), gateway(2)), pods);
        Cluster fewer = cluster(List.of(gateway(1), gateway(2)), pods.subList(1, pods.size()));
        for (Pod pod : pods.subList(1, pods.size())) {
            assertThat(HeadlessPodOwners.ownerOf(fewer, pod)).isEqualTo(HeadlessPodOwners.ownerOf(all, pod));
        }
    }
}
