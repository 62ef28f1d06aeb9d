package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.model.topology.Behaviour;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The topology file's top-level {@code behaviour} on live clusters: the local Cluster object's spec
 * {@code behaviour}, read as its {@code globalnet_mode} is. Unset means the seeds, as in a file; a
 * misspelt value is a problem naming the field, and the seeds are planned meanwhile.
 */
class BehaviourIsReadFromTheLocalClusterObject {

    private static LiveModel built(String behaviour) {
        SubmarinerCluster cluster = new SubmarinerCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("c1").withNamespace("submariner-operator").build());
        cluster.setSpec(new ClusterSpec("c1", null, List.of("10.0.0.0/16"), List.of("100.0.0.0/16"), List.of("242.0.1.0/24"), null,
                false, null, null, null, null, null, behaviour));
        LiveObjects live = new LiveObjects("c1", List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(cluster), List.of(), List.of(), List.of(), Optional.empty(), List.of());
        return ClusterModelBuilder.build("s", List.of(live));
    }

    @Test
    void withoutTheFieldTheClusterSetFollowsTheSeeds() {
        LiveModel model = built(null);
        assertThat(model.clusterSet().behaviour()).isEqualTo(Behaviour.SEEDS);
        assertThat(model.problems()).isEmpty();
    }

    @Test
    void upstreamOnTheClusterObjectMakesTheClusterSetFollowUpstream() {
        LiveModel model = built("upstream");
        assertThat(model.clusterSet().behaviour()).isEqualTo(Behaviour.UPSTREAM);
        assertThat(model.problems()).isEmpty();
        assertThat(built("seeds").clusterSet().behaviour()).isEqualTo(Behaviour.SEEDS);
    }

    @Test
    void aMisspeltValueIsAProblemAndTheSeedsArePlanned() {
        LiveModel model = built("upsteam");
        assertThat(model.clusterSet().behaviour()).isEqualTo(Behaviour.SEEDS);
        assertThat(model.problems()).singleElement().satisfies(p -> {
            assertThat(p.object()).isEqualTo("Cluster behaviour");
            assertThat(p.problem()).contains("'upsteam'", "seeds", "upstream");
        });
    }
}
