package io.periscope.kubernetes.testing;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The {@link MockCluster}'s server answers a JSON patch computed against an older copy, one that
 * removes a list entry another writer removed since, with 422 as kube-apiserver does, and leaves
 * the object as it was; a patch that applies still goes through.
 */
class APatchThatNoLongerAppliesIsRefusedAtOnceCrudTest {

    @Test
    void aRemoveOfAnEntryThatIsGoneIsAnswered422() {
        try (MockCluster cluster = new MockCluster()) {
            var client = cluster.client();
            client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("edited").withNamespace("default")
                    .withFinalizers("periscope.io/only").endMetadata().build()).create();
            var edited = client.configMaps().inNamespace("default").withName("edited");

            KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                    () -> edited.patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers/2\"}]"));
            assertThat(refused).as("the stale patch is refused").isNotNull();
            assertThat(refused.getCode()).isEqualTo(422);
            assertThat(edited.get().getMetadata().getFinalizers()).containsExactly("periscope.io/only");

            edited.patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers/0\"}]");
            assertThat(edited.get().getMetadata().getFinalizers()).isEmpty();
        }
    }
}
