package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.periscope.kubernetes.modelbuilder.LiveObjects;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one pass reads: the informers' caches as they were when it started, and the lease as last
 * observed. A pass reads nothing else from the API.
 *
 * @param live    the cluster's objects, when the runtime watches them (null otherwise)
 * @param caches  each {@link Watch}'s objects
 * @param leading whether this replica holds the runtime's lease; {@code true} when there is no lease
 *                (every replica acts)
 * @param leader  the lease's holder as last observed; empty without a lease
 */
public record Snapshot(LiveObjects live, Map<Watch<?>, List<? extends HasMetadata>> caches, boolean leading, Optional<String> leader) {

    public Snapshot {
        caches = Map.copyOf(caches);
    }

    /** The cluster's objects; only for a runtime built with {@code liveObjects}. */
    @Override
    public LiveObjects live() {
        if (live == null) {
            throw new IllegalStateException("this runtime does not watch the cluster's objects (LiveObjects)");
        }
        return live;
    }

    /** The cached objects of {@code watch}, one of the runtime's. */
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> List<T> list(Watch<T> watch) {
        List<? extends HasMetadata> cached = caches.get(watch);
        if (cached == null) {
            throw new IllegalArgumentException("not one of the runtime's watches: " + watch);
        }
        return (List<T>) cached;
    }
}
