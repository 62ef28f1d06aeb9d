package io.periscope.model.load;

import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The top-level {@code behaviour} setting: the seeds by default, upstream on request, a typo refused at its line. */
class BehaviourChoosesSeedsOrUpstream {

    private static final String CLUSTERS = """
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
            """;

    @Test
    void aFileThatSaysNothingFollowsTheSeeds() throws Exception {
        assertThat(TopologyLoader.parse(CLUSTERS, "t.yaml").behaviour()).isEqualTo(Behaviour.SEEDS);
    }

    @Test
    void upstreamIsChosenByNameAndWrittenBack() throws Exception {
        ClusterSet set = TopologyLoader.parse("behaviour: upstream\n" + CLUSTERS, "t.yaml");

        assertThat(set.behaviour()).isEqualTo(Behaviour.UPSTREAM);
        assertThat(TopologyWriter.write(set)).contains("behaviour: upstream");
        assertThat(TopologyLoader.parse(TopologyWriter.write(set), "t.yaml")).isEqualTo(set);
    }

    @Test
    void anUnknownBehaviourNamesItsLineAndTheChoices() {
        TopologyException failure = catchThrowableOfType(TopologyException.class,
                () -> TopologyLoader.parse("behaviour: upstreem\n" + CLUSTERS, "t.yaml"));

        assertThat(failure.errors()).hasSize(1);
        TopologyError error = failure.errors().getFirst();
        assertThat(error.line()).isEqualTo(1);
        assertThat(error.path()).isEqualTo("behaviour");
        assertThat(error.format()).contains("'seeds', 'upstream'");
    }

    @Test
    void aClusterSetKeepsItsBehaviourThroughFailuresAndNewFlows() throws Exception {
        ClusterSet set = TopologyLoader.parse("behaviour: upstream\n" + CLUSTERS, "t.yaml");

        assertThat(set.withoutNodes(java.util.List.of("east/gw")).behaviour()).isEqualTo(Behaviour.UPSTREAM);
        assertThat(set.withFlows(java.util.List.of()).behaviour()).isEqualTo(Behaviour.UPSTREAM);
    }
}
