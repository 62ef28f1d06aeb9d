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

    /** Headless services, pod selectors, flows with expectations: what the examples hold. */
    @ParameterizedTest
    @ValueSource(strings = {"mag-globalnet.yaml", "globalnet-egress.yaml", "mag-globalnet-egress.yaml"})
    void anExample(String name) throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", name));

        assertThat(TopologyLoader.parse(TopologyFile.yaml(set), name)).isEqualTo(set);
    }
}
