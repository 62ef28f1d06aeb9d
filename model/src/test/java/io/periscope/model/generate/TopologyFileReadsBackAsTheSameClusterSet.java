package io.periscope.model.generate;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class TopologyFileReadsBackAsTheSameClusterSet {

    @Test
    void aGeneratedSetWithGlobalEgressIPsAndClientOnlyPods() throws Exception {
        ClusterSet set = new SyntheticClusterSet(3, 4, 2, 40, 4, 2, GlobalnetMode.V2, 20).build();

        assertThat(TopologyLoader.parse(TopologyFile.yaml(set), "synthetic.yaml")).isEqualTo(set);
    }

    @Test
    void aGeneratedLegacySetWithOneGateway() throws Exception {
        ClusterSet set = new SyntheticClusterSet(2, 3, 1, 12, 2, 0, GlobalnetMode.LEGACY).build();

        assertThat(TopologyLoader.parse(TopologyFile.yaml(set), "synthetic.yaml")).isEqualTo(set);
    }

    /** Headless services, pod selectors, flows with expectations, connectivity and connection policies: what the examples hold. */
    @ParameterizedTest
    @ValueSource(strings = {"mag-globalnet.yaml", "globalnet-egress.yaml", "mag-globalnet-egress.yaml", "client-server.yaml",
            "on-premise-vxlan-cloud-wireguard.yaml"})
    void anExample(String name) throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", name));

        assertThat(TopologyLoader.parse(TopologyFile.yaml(set), name)).isEqualTo(set);
    }

    /**
     * Links and the hash policy too: the lab's supervisor shapes links and programs the policy from
     * the set it reads back, so a figure that did not survive the round trip would be applied wrong.
     */
    @Test
    void uplinksCablesAndTheHashPolicyReadBackExactly() throws Exception {
        String text = java.nio.file.Files.readString(Path.of("..", "examples", "client-server.yaml"))
                .replace("{name: server-gw, ip: 172.30.10.2, cniIP: 10.10.0.1, gateway: true}",
                        "{name: server-gw, ip: 172.30.10.2, cniIP: 10.10.0.1, gateway: true, uplink: {rate: 1234567bit, delay: 1.5ms,"
                                + " jitter: 250us, loss: 0.00001%, queue: 7}}")
                .replace("{name: client1-worker, ip: 172.30.11.3, cniIP: 10.11.1.1}",
                        "{name: client1-worker, ip: 172.30.11.3, cniIP: 10.11.1.1, uplink: {rate: 1.5gbit, loss: 100%}}")
                .replace("    labels: {database-role: client}\n    podCIDRs: [10.11.0.0/16]",
                        "    labels: {database-role: client}\n    multipathHashPolicy: l3-inner\n    podCIDRs: [10.11.0.0/16]")
                + "cables:\n  - {between: [client1, server], rate: 50mbit, delay: 20ms, jitter: 0.5ms, loss: 0.1%}\n"
                + "  - {between: [server, client2]}\n";
        ClusterSet set = TopologyLoader.parse(text, "linked.yaml");
        assertThat(set.cables()).hasSize(2);
        assertThat(set.requireCluster("server").requireNode("server-gw").link().uplink().isEmpty()).isFalse();
        assertThat(set.requireCluster("client1").environment().multipathHash().yamlName()).isEqualTo("l3-inner");

        assertThat(TopologyLoader.parse(TopologyFile.yaml(set), "linked.yaml")).isEqualTo(set);
    }

    /** What the lab's supervisor reads: a set whose cluster lost every gateway node, which a person's file may not describe. */
    @Test
    void aSetWithFailedGatewaysReadsBackUnvalidated(@org.junit.jupiter.api.io.TempDir Path directory) throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", "mag-vanilla.yaml")).withoutNodes(java.util.List.of("cluster2/gw-3", "cluster2/gw-4"));
        Path file = directory.resolve("topology.yaml");
        java.nio.file.Files.writeString(file, TopologyFile.yaml(set));

        assertThat(TopologyLoader.loadWritten(file)).isEqualTo(set);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TopologyLoader.load(file)).hasMessageContaining("1 error");
    }
}
