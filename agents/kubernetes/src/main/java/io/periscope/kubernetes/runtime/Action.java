package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;

import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One API write a pass wants, carried out by the {@link StatusWriter}. Each kind of write is one
 * request pattern (the deploy/ roles are checked against the requests, so the verbs matter): a
 * write the API refuses is left to the next pass, as the {@link Controller} says.
 */
public sealed interface Action {

    /** The API written to. */
    Api api();

    /** The write as the log names it, e.g. {@code create GlobalIngressIP default/svc-nginx}. */
    String describe();

    /** POST: creates the object, which must not exist yet. */
    record Create(Api api, HasMetadata object) implements Action {
        @Override
        public String describe() {
            return "create " + Action.name(object);
        }
    }

    /** PUT of the object as given: carrying the resourceVersion it was read at, a concurrent change is a conflict. */
    record Update(Api api, HasMetadata object) implements Action {
        @Override
        public String describe() {
            return "update " + Action.name(object);
        }
    }

    /** POST, or PUT when it exists: the object becomes this one, whatever was there. */
    record CreateOrUpdate(Api api, HasMetadata object) implements Action {
        @Override
        public String describe() {
            return "write " + Action.name(object);
        }
    }

    /** DELETE of the object, as cached, by namespace and name. */
    record Delete(Api api, HasMetadata object) implements Action {
        @Override
        public String describe() {
            return "delete " + Action.name(object);
        }
    }

    /**
     * DELETE by name. With {@code uid}, only while the object still has it (read first): one deleted
     * and created again meanwhile is left alone.
     *
     * @param namespace {@code ""} for a cluster-scoped kind
     */
    record DeleteNamed(Api api, Class<? extends HasMetadata> kind, String namespace, String name, Optional<String> uid) implements Action {
        @Override
        public String describe() {
            return "delete " + Action.name(kind, namespace, name);
        }
    }

    /**
     * Edits this cluster's object (read, then PATCH of the difference) while it still has {@code uid}:
     * a metadata change such as an annotation.
     */
    record Edit<T extends HasMetadata>(Class<T> kind, String namespace, String name, String uid, UnaryOperator<T> edit) implements Action {
        @Override
        public Api api() {
            return Api.LOCAL;
        }

        @Override
        public String describe() {
            return "edit " + Action.name(kind, namespace, name);
        }
    }

    /** Edits the status subresource of an object (read, then PATCH) while it still has {@code uid}. */
    record EditStatus<T extends HasMetadata>(Api api, Class<T> kind, String namespace, String name, String uid, UnaryOperator<T> edit)
            implements Action {

        /** On this cluster's API. */
        public EditStatus(Class<T> kind, String namespace, String name, String uid, UnaryOperator<T> edit) {
            this(Api.LOCAL, kind, namespace, name, uid, edit);
        }

        @Override
        public String describe() {
            return "write the status of " + Action.name(kind, namespace, name);
        }
    }

    /**
     * The status of an object this controller keeps for itself (its node's Gateway, say): the object
     * is created bare (from {@code fresh}) when missing, and the status is written only when it differs.
     */
    record PutStatus<S, T extends CustomResource<?, S>>(Class<T> kind, Supplier<T> fresh, String namespace, String name, S status)
            implements Action {
        @Override
        public Api api() {
            return Api.LOCAL;
        }

        @Override
        public String describe() {
            return "write the status of " + Action.name(kind, namespace, name);
        }
    }

    private static String name(HasMetadata object) {
        return object.getKind() + " " + key(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    private static String name(Class<? extends HasMetadata> kind, String namespace, String name) {
        return HasMetadata.getKind(kind) + " " + key(namespace, name);
    }

    private static String key(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
