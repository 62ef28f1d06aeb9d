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
