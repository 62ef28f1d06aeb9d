package io.periscope.model.policy;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalnetConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterGraphConnectsPairsAsSeed001Says {

    private static Cluster cluster(String name, Map<String, String> labels, int index) {
        return new Cluster(name, labels, List.of(Ipv4Prefix.parse("10." + index + ".0.0/16")), List.of(Ipv4Prefix.parse("100." + index + ".0.0/16")),
                Optional.empty(), Cni.KUBE_PROXY, false, 8, GatewayLoadBalancing.MULTIPATH_ROUTES, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    private static final List<Cluster> CLUSTERS = List.of(
            cluster("db", Map.of("database-role", "server", "location", "on-premise"), 1),
            cluster("app-a", Map.of("database-role", "client", "location", "on-premise"), 2),
            cluster("app-b", Map.of("database-role", "client", "location", "cloud"), 3));

    private static ClusterSet set(List<ClusterConnectivityPolicy> connectivity, List<ClusterConnectionPolicy> connection) {
        return new ClusterSet("t", GlobalnetConfig.DISABLED, CableDriver.LIBRESWAN, CLUSTERS, connectivity, connection, List.of());
    }

    @Test
    void noConnectivityPolicyMeansFullMeshWithTheDefaultDriver() {
        ClusterGraph graph = ClusterGraph.of(set(List.of(), List.of()));
        assertThat(graph.connections()).hasSize(3);
        assertThat(graph.connection("app-a", "app-b")).get().extracting(c -> c.cableDriver().name()).isEqualTo(CableDriver.LIBRESWAN);
    }

    @Test
    void clientServerPolicyConnectsClientsToTheServerButNotToEachOther() {
        ClusterGraph graph = ClusterGraph.of(set(List.of(new ClusterConnectivityPolicy("client-server-policy",
                LabelSelector.ofLabels(Map.of("database-role", "server")), LabelSelector.ofLabels(Map.of("database-role", "client")))), List.of()));
        assertThat(graph.connected("db", "app-a")).isTrue();
        assertThat(graph.connected("app-b", "db")).as("either way round").isTrue();
        assertThat(graph.connected("app-a", "app-b")).isFalse();
        assertThat(graph.peersOf("db")).containsExactly("app-a", "app-b");
    }

    @Test
    void emptySelectorOnOneSideConnectsTheServerToEveryone() {
        ClusterGraph graph = ClusterGraph.of(set(List.of(new ClusterConnectivityPolicy("any-to-server",
                LabelSelector.ofLabels(Map.of("database-role", "server")), LabelSelector.EVERYTHING)), List.of()));
        assertThat(graph.connected("db", "app-b")).isTrue();
        assertThat(graph.connected("app-a", "app-b")).isFalse();
    }

    @Test
    void firstMatchingConnectionPolicyPicksTheDriver() {
        LabelSelector onPremise = LabelSelector.ofLabels(Map.of("location", "on-premise"));
        ClusterGraph graph = ClusterGraph.of(set(List.of(), List.of(
                new ClusterConnectionPolicy(onPremise, onPremise, CableDriverSpec.of(CableDriver.VXLAN)),
                new ClusterConnectionPolicy(LabelSelector.EVERYTHING, LabelSelector.EVERYTHING, CableDriverSpec.of(CableDriver.WIREGUARD)))));
        assertThat(graph.connection("db", "app-a")).get().extracting(c -> c.cableDriver().name()).isEqualTo(CableDriver.VXLAN);
        assertThat(graph.connection("db", "app-b")).get().extracting(c -> c.cableDriver().name()).isEqualTo(CableDriver.WIREGUARD);
        assertThat(graph.connection("app-b", "app-a")).get().extracting(c -> c.cableDriver().name()).isEqualTo(CableDriver.WIREGUARD);
    }
}
