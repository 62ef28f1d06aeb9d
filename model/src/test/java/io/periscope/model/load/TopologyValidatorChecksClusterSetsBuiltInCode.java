package io.periscope.model.load;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The validator works on records alone, e.g. for a flow given on the command line. */
class TopologyValidatorChecksClusterSetsBuiltInCode {

    @Test
    void aValidClusterSetHasNoErrors() throws TopologyException {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", "mag-globalnet.yaml"));

        assertThat(TopologyValidator.validate(set, SourcePositions.NONE, "cli")).isEmpty();
    }

    @Test
    void anAddedFlowToAnUnknownPodIsReportedByItsPathWithoutALine() throws TopologyException {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", "mag-globalnet.yaml"));
        List<Flow> flows = new ArrayList<>(set.flows());
        flows.add(new Flow("ad-hoc", new FlowSource.PodSource("cluster1", "default", "client"),
                new FlowTarget.PodTarget("cluster2", "default", "nginx", 80), Protocol.TCP, Optional.empty()));

        List<TopologyError> errors = TopologyValidator.validate(set.withFlows(flows), SourcePositions.NONE, "--to");

        assertThat(errors).singleElement().satisfies(error -> {
            assertThat(error.file()).isEqualTo("--to");
            assertThat(error.line()).isZero();
            assertThat(error.path()).isEqualTo("flows[1].to");
            assertThat(error.problem()).contains("pod 'default/nginx', which is not a pod of cluster 'cluster2'");
            assertThat(error.fix()).contains("default/nginx-7d4f");
        });
    }
}
