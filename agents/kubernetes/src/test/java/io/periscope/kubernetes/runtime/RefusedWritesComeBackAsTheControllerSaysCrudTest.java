package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static io.periscope.kubernetes.testing.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime's loop, with a resync of an hour so that only the runtime itself can bring a pass
 * back: a refused write comes back at once ({@code PASS_AGAIN}, the default), after the retry delay
 * ({@code RETRY_LATER}, the pass counting as failed until the write goes through) or not at all
 * ({@code IGNORE}); a pass that waits on something no informer reports comes back after the retry
 * delay.
 */
class RefusedWritesComeBackAsTheControllerSaysCrudTest {

    private static final Duration AN_HOUR = Duration.ofHours(1);
    private static final Duration RETRY = Duration.ofMillis(100);

    private MockCluster cluster;
    private KubernetesClient client;
    private ControllerRuntime runtime;

    @BeforeEach
    void cluster() {
        cluster = new MockCluster();
        client = cluster.client();
        client.configMaps().resource(configMap()).create();
    }

    @AfterEach
    void stop() {
        if (runtime != null) {
            runtime.close();
        }
        cluster.close();
    }

    @Test
    void aWriteRefusedAsPassAgainIsLookedAtAgainAtOnceUntilItGoesThrough() {
        AtomicInteger passes = new AtomicInteger();
        runtime = runtime(creating(passes, Controller.Refused.PASS_AGAIN));
        await("passes follow each other while the create is refused", Duration.ofSeconds(10), () -> passes.get() >= 5);
        client.configMaps().inNamespace("default").withName("periscope-test").delete();
        await("the create went through", () -> "by the runtime".equals(written()));
        int settled = settle(passes);
        sleep(500);
        assertThat(passes.get()).as("no pass without a refusal, an event or the resync").isEqualTo(settled);
    }

    @Test
    void aWriteRefusedAsRetryLaterFailsThePassUntilItGoesThrough() {
        AtomicInteger passes = new AtomicInteger();
        runtime = runtime(creating(passes, Controller.Refused.RETRY_LATER));
        await("the pass is tried again after the retry delay", Duration.ofSeconds(10), () -> passes.get() >= 3);
        assertThat(runtime.passes()).as("passes completed").isZero();
        client.configMaps().inNamespace("default").withName("periscope-test").delete();
        await("a pass completes once the create goes through", () -> runtime.passes() >= 1);
        assertThat(written()).isEqualTo("by the runtime");
    }

    @Test
    void aWriteRefusedAsIgnoredIsNotLookedAtAgain() {
        AtomicInteger passes = new AtomicInteger();
        runtime = runtime(creating(passes, Controller.Refused.IGNORE));
        await("the first pass completed", () -> runtime.passes() == 1);
        sleep(500);
        assertThat(passes.get()).isEqualTo(1);
    }

    @Test
    void aPassThatWaitsOnSomethingElseComesBackAfterTheRetryDelay() {
        AtomicInteger passes = new AtomicInteger();
        runtime = runtime(snapshot -> passes.incrementAndGet() < 4 ? Pass.COME_BACK_SOON : Pass.NOTHING);
        await("three passes came back", Duration.ofSeconds(10), () -> passes.get() >= 4);
        sleep(500);
        assertThat(passes.get()).isEqualTo(4);
    }

    private ControllerRuntime runtime(Controller controller) {
        return ControllerRuntime.builder("runtime-test", cluster.newClient()).resync(AN_HOUR).retry(RETRY).build(controller).start();
    }

    /** Creates the ConfigMap the test made first: refused with 409 until the test deletes it. */
    private static Controller creating(AtomicInteger passes, Controller.Refused refused) {
        return new Controller() {
            @Override
            public Pass pass(Snapshot snapshot) {
                passes.incrementAndGet();
                ConfigMap written = configMap();
                written.setData(java.util.Map.of("written", "by the runtime"));
                return Pass.writing(new Action.Create(Api.LOCAL, written));
            }

            @Override
            public Refused refused(Action action, KubernetesClientException refusal) {
                // 409: the test's own ConfigMap is in the way.
                return refusal.getCode() == 409 ? refused : Refused.PASS_AGAIN;
            }
        };
    }

    private String written() {
        ConfigMap current = client.configMaps().inNamespace("default").withName("periscope-test").get();
        return current == null ? null : current.getData().get("written");
    }

    private static ConfigMap configMap() {
        return new ConfigMapBuilder().withNewMetadata().withName("periscope-test").withNamespace("default").endMetadata()
                .addToData("written", "by the test").build();
    }

    /** The pass count once it stopped moving. */
    private static int settle(AtomicInteger passes) {
        int last;
        do {
            last = passes.get();
            sleep(200);
        } while (passes.get() != last);
        return last;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
