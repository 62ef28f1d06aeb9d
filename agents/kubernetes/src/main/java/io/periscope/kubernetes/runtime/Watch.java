package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Optional;

/**
 * An informer a controller reads besides {@link io.periscope.kubernetes.modelbuilder.LiveObjects}:
 * one kind, on one API, in one namespace or in all of them. It is also the key its cache is read by
 * in a {@link Snapshot}.
 *
 * @param namespace empty: every namespace
 */
public record Watch<T extends HasMetadata>(Api api, Class<T> kind, Optional<String> namespace) {

    public static <T extends HasMetadata> Watch<T> inNamespace(Api api, Class<T> kind, String namespace) {
        return new Watch<>(api, kind, Optional.of(namespace));
    }

    public static <T extends HasMetadata> Watch<T> everywhere(Api api, Class<T> kind) {
        return new Watch<>(api, kind, Optional.empty());
    }

    @Override
    public String toString() {
        return api.name().toLowerCase(java.util.Locale.ROOT) + "/" + HasMetadata.getKind(kind) + namespace.map(n -> " in " + n).orElse("");
    }
}
