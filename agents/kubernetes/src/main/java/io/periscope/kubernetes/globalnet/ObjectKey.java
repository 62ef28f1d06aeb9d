package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** A Globalnet object by kind, namespace ({@code ""} for cluster-scoped) and name. */
public record ObjectKey(String kind, String namespace, String name) implements Comparable<ObjectKey> {

    public static ObjectKey of(HasMetadata object) {
        String namespace = object.getMetadata().getNamespace();
        return new ObjectKey(object.getKind(), namespace == null ? "" : namespace, object.getMetadata().getName());
    }

    /** How the object is named in messages and as the pool's owner, e.g. {@code GlobalEgressIP ns1/db-pods}. */
    public String requester() {
        return namespace.isEmpty() ? kind + " " + name : kind + " " + namespace + "/" + name;
    }

    @Override
    public int compareTo(ObjectKey o) {
        return requester().compareTo(o.requester());
    }

    @Override
    public String toString() {
        return requester();
    }
}
