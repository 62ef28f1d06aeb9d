package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static io.periscope.kubernetes.testing.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A controller that deletes the first ConfigMap labelled {@code doomed}, one a pass, and wakes its
 * loop again in the same pass, so that the next pass starts as soon as the delete returned, most
 * often before its watch event reaches the cache: the runtime holds that pass until the cache shows
 * the delete ({@link UnseenWrites}), so each ConfigMap gets one DELETE, not one per pass that saw it
 * cached. This is the race that had the service export sync delete a copy twice.
 */
class ACopyIsDeletedOnceThoughThePassAfterComesAtOnceCrudTest {

    private static final int DOOMED = 20;
    private static final Watch<ConfigMap> CONFIG_MAPS = Watch.inNamespace(Api.LOCAL, ConfigMap.class, "default");

    @Test
    void eachDoomedConfigMapGetsOneDelete() {
        try (MockCluster cluster = new MockCluster()) {
            deleteTheDoomed(cluster);
        }
    }

    private static void deleteTheDoomed(MockCluster cluster) {
        KubernetesClient client = cluster.client();
        for (int i = 0; i < DOOMED; i++) {
            client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("doomed-" + i).withNamespace("default")
                    .addToLabels("doomed", "true").endMetadata().build()).create();
        }
        cluster.takeRequests();

        AtomicReference<ControllerRuntime> self = new AtomicReference<>();
        Controller deleting = snapshot -> {
            List<Action> deletes = snapshot.list(CONFIG_MAPS).stream().filter(c -> c.getMetadata().getLabels() != null
                    && "true".equals(c.getMetadata().getLabels().get("doomed"))).sorted(Comparator.comparing(c -> c.getMetadata().getName()))
                    .limit(1).<Action>map(c -> new Action.Delete(Api.LOCAL, c)).toList();
            if (!deletes.isEmpty() && self.get() != null) {
                self.get().signal();
            }
            return Pass.writing(deletes);
        };
        try (ControllerRuntime runtime = ControllerRuntime.builder("delete-once", cluster.newClient("delete-once")).watch(CONFIG_MAPS)
                .resync(Duration.ofHours(1)).retry(Duration.ofMillis(100)).build(deleting)) {
            self.set(runtime);
            runtime.start();
            awaitTheDeletes(client, runtime);
        }
        List<String> deletes = cluster.takeRequests().stream().filter(r -> "delete-once".equals(r.getHeader("User-Agent")))
                .filter(r -> "DELETE".equals(r.getMethod())).map(RecordedRequest::getPath).toList();
        assertThat(deletes).as("DELETE requests of the controller").hasSize(DOOMED).doesNotHaveDuplicates();
    }

    /** Until every doomed ConfigMap is gone, the controller's cache shows it, and one more pass ran on that cache. */
    private static void awaitTheDeletes(KubernetesClient client, ControllerRuntime runtime) {
        await("every doomed ConfigMap is gone", () -> client.configMaps().inNamespace("default").list().getItems().isEmpty());
        await("the controller settled", () -> runtime.snapshot().list(CONFIG_MAPS).isEmpty());
        long passes = runtime.passes();
        runtime.signal();
        await("one more pass on the settled cache", () -> runtime.passes() > passes);
    }
}
