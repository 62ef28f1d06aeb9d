package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A runtime's own writes that its informers' caches do not show yet. A pass reads the caches, and a
 * cache shows a write only when the watch event for it arrives, some time after the request
 * returned; a pass that ran in between would find its predecessor's work undone and do it again: a
 * second DELETE of a copy already deleted, a POST of an object that exists. So a pass waits until
 * every cache that holds a written kind shows the write, as client-go's controllers wait on their
 * "expectations", or until {@code patience} has passed since the write (a watch that lags, an event
 * folded into a relist): then it runs on what it has, and the API's answer decides.
 *
 * <p>Only writes to a kind and namespace some cache watches are followed: a create until the
 * object is there, a delete until it (or the one with that uid) is gone, and any other write until
 * the cached resourceVersion is no longer the one the cache held when the write returned (unless
 * that is already the written one: a write that changed nothing makes no event). Used from the
 * runtime's loop thread only.
 */
final class UnseenWrites {

    /** One informer's cache: what it watches (one kind on one API, in one namespace or all) and its store. */
    record Watched(Api api, Class<?> kind, Optional<String> namespace, Store<? extends HasMetadata> store) {

        boolean holds(Api api, Class<?> kind, String namespace) {
            return this.api == api && this.kind == kind
                    && (this.namespace.isEmpty() || this.namespace.get().equals(namespace == null ? "" : namespace));
        }
    }

    private record Unseen(Watched cache, String key, Predicate<HasMetadata> showsIt, long deadline) {

        boolean shown() {
            return showsIt.test(cache.store().getByKey(key));
        }
    }

    private final List<Watched> caches;
    private final Duration patience;
    private final LongSupplier nanoTime;
    private final List<Unseen> unseen = new ArrayList<>();

    UnseenWrites(List<Watched> caches, Duration patience, LongSupplier nanoTime) {
        this.caches = List.copyOf(caches);
        this.patience = patience;
        this.nanoTime = nanoTime;
    }

    /**
     * Follows a write the API accepted, if a cache can show it.
     *
     * @param answer the object as the API answered the write (for all but deletes): its
     *               resourceVersion is the one the cache will show, or the one it already shows
     *               when the write changed nothing (an update or edit that changes nothing keeps the
     *               version, and no watch event comes for it)
     */
    void wrote(Action action, Optional<HasMetadata> answer) {
        switch (action) {
            case Action.Create create -> follow(action.api(), create.object(), Objects::nonNull);
            case Action.Delete delete -> follow(action.api(), delete.object(), gone(delete.object().getMetadata().getUid()));
            case Action.DeleteNamed delete -> cacheOf(action.api(), delete.kind(), delete.namespace())
                    .ifPresent(cache -> add(cache, delete.namespace(), delete.name(), gone(delete.uid().orElse(null))));
            default -> answer.ifPresent(written -> followChange(action.api(), written));
        }
    }

    /**
     * A write that left {@code written} on the API: shown once the cache no longer holds the version
     * it held when the write returned, unless it holds the written one already.
     */
    private void followChange(Api api, HasMetadata written) {
        String namespace = written.getMetadata().getNamespace();
        cacheOf(api, written.getClass(), namespace).ifPresent(cache -> {
            HasMetadata cached = cache.store().getByKey(key(namespace, written.getMetadata().getName()));
            String before = cached == null ? null : cached.getMetadata().getResourceVersion();
            if (before != null && before.equals(written.getMetadata().getResourceVersion())) {
                return;
            }
            add(cache, namespace, written.getMetadata().getName(),
                    now -> now == null ? before != null : !Objects.equals(before, now.getMetadata().getResourceVersion()));
        });
    }

    /**
     * Forgets the writes the caches now show and those waited for long enough; empty when none is
     * left (a pass may run), else how long until the patience for the first one left runs out.
     */
    Optional<Duration> waitFor() {
        long now = nanoTime.getAsLong();
        unseen.removeIf(u -> u.deadline() - now <= 0 || u.shown());
        return unseen.stream().mapToLong(Unseen::deadline).min()
                .stream().mapToObj(deadline -> Duration.ofNanos(Math.max(1_000_000, deadline - now))).findFirst();
    }

    /** How many writes are still waited for; for tests. */
    int size() {
        return unseen.size();
    }

    private void follow(Api api, HasMetadata object, Predicate<HasMetadata> shown) {
        String namespace = object.getMetadata().getNamespace();
        cacheOf(api, object.getClass(), namespace).ifPresent(cache -> add(cache, namespace, object.getMetadata().getName(), shown));
    }

    private void add(Watched cache, String namespace, String name, Predicate<HasMetadata> shown) {
        unseen.add(new Unseen(cache, key(namespace, name), shown, nanoTime.getAsLong() + patience.toNanos()));
    }

    /** The key an informer's store files the object under. */
    private static String key(String namespace, String name) {
        return io.fabric8.kubernetes.client.informers.cache.Cache.namespaceKeyFunc(namespace, name);
    }

    private Optional<Watched> cacheOf(Api api, Class<?> kind, String namespace) {
        return caches.stream().filter(c -> c.holds(api, kind, namespace)).findFirst();
    }

    /** Shown when the object is gone, or (given its uid) replaced by another of the same name. */
    private static Predicate<HasMetadata> gone(String uid) {
        return cached -> cached == null || uid != null && !uid.equals(cached.getMetadata().getUid());
    }
}
