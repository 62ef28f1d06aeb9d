package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link UnseenWrites} on a cache the test fills by hand and a clock it moves: a write is waited for
 * until the cache of its kind shows it, or until the patience runs out; a write no cache can show is
 * not waited for at all.
 */
class APassWaitsUntilTheCachesShowItsOwnWrites {

    private static final Duration PATIENCE = Duration.ofSeconds(5);

    private final MapStore configMaps = new MapStore();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final UnseenWrites unseen = new UnseenWrites(
            List.of(new UnseenWrites.Watched(Api.LOCAL, ConfigMap.class, Optional.of("default"), configMaps)), PATIENCE, now::get);

    @Test
    void aDeleteIsWaitedForUntilTheCacheDropsTheObject() {
        ConfigMap copy = configMap("copy", "uid-1", "7");
        configMaps.put(copy);
        assertWaitedForUntil(new Action.Delete(Api.LOCAL, copy), Optional.empty(), () -> configMaps.remove(copy));
    }

    @Test
    void aDeleteIsShownByAnotherObjectOfTheSameName() {
        configMaps.put(configMap("copy", "uid-1", "7"));
        assertWaitedForUntil(new Action.DeleteNamed(Api.LOCAL, ConfigMap.class, "default", "copy", Optional.of("uid-1")), Optional.empty(),
                () -> configMaps.put(configMap("copy", "uid-2", "9")));
    }

    @Test
    void aCreateIsWaitedForUntilTheCacheHoldsTheObject() {
        assertWaitedForUntil(new Action.Create(Api.LOCAL, configMap("made", null, null)), Optional.of(configMap("made", "uid-3", "1")),
                () -> configMaps.put(configMap("made", "uid-3", "1")));
    }

    @Test
    void anUpdateIsWaitedForUntilTheCacheNoLongerHoldsTheVersionItHadWhenTheWriteReturned() {
        configMaps.put(configMap("changed", "uid-4", "12"));
        assertWaitedForUntil(new Action.Update(Api.LOCAL, configMap("changed", "uid-4", "12")), Optional.of(configMap("changed", "uid-4", "13")),
                () -> configMaps.put(configMap("changed", "uid-4", "13")));
    }

    @Test
    void aStatusEditIsWaitedForAsAnUpdateIs() {
        configMaps.put(configMap("status", "uid-7", "30"));
        assertWaitedForUntil(new Action.EditStatus<>(ConfigMap.class, "default", "status", "uid-7", c -> c),
                Optional.of(configMap("status", "uid-7", "31")), () -> configMaps.put(configMap("status", "uid-7", "31")));
    }

    @Test
    void aWriteThatChangedNothingIsNotWaitedFor() {
        configMaps.put(configMap("same", "uid-6", "21"));
        unseen.wrote(new Action.Update(Api.LOCAL, configMap("same", "uid-6", "21")), Optional.of(configMap("same", "uid-6", "21")));
        unseen.wrote(new Action.Edit<>(ConfigMap.class, "default", "same", "uid-6", c -> c), Optional.of(configMap("same", "uid-6", "21")));
        assertThat(unseen.waitFor()).as("the API kept the resourceVersion: no event will come").isEmpty();
    }

    @Test
    void aWriteTheCacheShowedBeforeItReturnedIsNotWaitedFor() {
        configMaps.put(configMap("quick", "uid-8", "41"));
        unseen.wrote(new Action.Update(Api.LOCAL, configMap("quick", "uid-8", "40")), Optional.of(configMap("quick", "uid-8", "41")));
        assertThat(unseen.waitFor()).isEmpty();
    }

    @Test
    void aWriteTheCacheNeverShowsIsWaitedForOnlyAsLongAsThePatience() {
        ConfigMap copy = configMap("copy", "uid-1", "7");
        configMaps.put(copy);
        unseen.wrote(new Action.Delete(Api.LOCAL, copy), Optional.empty());

        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(unseen.waitFor()).as("what is left of the patience").contains(Duration.ofSeconds(3));
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        assertThat(unseen.waitFor()).as("the patience ran out: the pass runs on what it has").isEmpty();
        assertThat(unseen.size()).isZero();
    }

    @Test
    void writesNoCacheHoldsAreNotWaitedFor() {
        unseen.wrote(new Action.Create(Api.BROKER, configMap("on-the-broker", null, null)), Optional.empty());
        unseen.wrote(new Action.Create(Api.LOCAL, configMap("elsewhere", null, null, "kube-system")), Optional.empty());
        Secret secret = new Secret();
        secret.setMetadata(configMap("secret", null, null).getMetadata());
        unseen.wrote(new Action.Create(Api.LOCAL, secret), Optional.empty());
        unseen.wrote(new Action.PutStatus<>(io.periscope.kubernetes.crd.Gateway.class, io.periscope.kubernetes.crd.Gateway::new, "default", "gw",
                null), Optional.empty());

        assertThat(unseen.waitFor()).isEmpty();
        assertThat(unseen.size()).isZero();
    }

    /** The write is waited for (with the whole patience left) until the cache changes as {@code cacheShowsIt} changes it. */
    private void assertWaitedForUntil(Action write, Optional<HasMetadata> answer, Runnable cacheShowsIt) {
        unseen.wrote(write, answer);
        assertThat(unseen.waitFor()).as("the cache does not show the write yet").contains(PATIENCE);
        cacheShowsIt.run();
        assertThat(unseen.waitFor()).as("the cache shows it").isEmpty();
    }

    private static ConfigMap configMap(String name, String uid, String resourceVersion) {
        return configMap(name, uid, resourceVersion, "default");
    }

    private static ConfigMap configMap(String name, String uid, String resourceVersion, String namespace) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace).withUid(uid).withResourceVersion(resourceVersion)
                .endMetadata().build();
    }

    /** An informer's store as the watch events would leave it. */
    private static final class MapStore implements Store<HasMetadata> {
        private final Map<String, HasMetadata> objects = new LinkedHashMap<>();

        void put(HasMetadata object) {
            objects.put(getKey(object), object);
        }

        void remove(HasMetadata object) {
            objects.remove(getKey(object));
        }

        @Override
        public List<HasMetadata> list() {
            return new ArrayList<>(objects.values());
        }

        @Override
        public List<String> listKeys() {
            return new ArrayList<>(objects.keySet());
        }

        @Override
        public HasMetadata get(HasMetadata object) {
            return objects.get(getKey(object));
        }

        @Override
        public HasMetadata getByKey(String key) {
            return objects.get(key);
        }

        @Override
        public String getKey(HasMetadata object) {
            return Cache.metaNamespaceKeyFunc(object);
        }
    }
}
