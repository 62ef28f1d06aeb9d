package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The one place the controllers' {@link Action}s become fabric8 requests. It decides nothing: a
 * refusal is thrown back to the {@link ControllerRuntime}, which asks the controller what it means.
 */
public final class StatusWriter {

    private final KubernetesClient local;
    private final Optional<KubernetesClient> broker;

    public StatusWriter(KubernetesClient local, Optional<KubernetesClient> broker) {
        this.local = local;
        this.broker = broker;
    }

    /**
     * Carries out one action.
     *
     * @return the object as the API answered a write of one (a create, an update, an edit; its new
     *         resourceVersion, or its old one when the edit changed nothing); empty for a delete and
     *         for a status put that had nothing to write
     * @throws KubernetesClientException as the API refused it
     */
    public Optional<HasMetadata> apply(Action action) {
        KubernetesClient client = client(action.api());
        return Optional.ofNullable(switch (action) {
            case Action.Create create -> client.resource(create.object()).create();
            case Action.Update update -> client.resource(update.object()).update();
            case Action.CreateOrUpdate write -> client.resource(write.object()).createOr(NonDeletingOperation::update);
            case Action.Delete delete -> {
                client.resource(delete.object()).delete();
                yield null;
            }
            case Action.DeleteNamed delete -> {
                deleteNamed(client, delete);
                yield null;
            }
            case Action.Edit<?> edit -> edit(client, edit);
            case Action.EditStatus<?> edit -> editStatus(client, edit);
            case Action.PutStatus<?, ?> put -> putStatus(client, put);
        });
    }

    private KubernetesClient client(Api api) {
        return switch (api) {
            case LOCAL -> local;
            case BROKER -> broker.orElseThrow(() -> new IllegalStateException("this runtime has no broker API"));
        };
    }

    private static void deleteNamed(KubernetesClient client, Action.DeleteNamed delete) {
        Resource<? extends HasMetadata> resource = named(client, delete.kind(), delete.namespace(), delete.name());
        if (delete.uid().isPresent()) {
            HasMetadata current = resource.get();
            if (current == null || !delete.uid().get().equals(current.getMetadata().getUid())) {
                return;
            }
        }
        resource.delete();
    }

    private static <T extends HasMetadata> T edit(KubernetesClient client, Action.Edit<T> edit) {
        return named(client, edit.kind(), edit.namespace(), edit.name()).edit(sameUid(edit.uid(), edit.edit()));
    }

    private static <T extends HasMetadata> T editStatus(KubernetesClient client, Action.EditStatus<T> edit) {
        return named(client, edit.kind(), edit.namespace(), edit.name()).editStatus(sameUid(edit.uid(), edit.edit()));
    }

    /** The object with its status written; null when it already had that status. */
    private static <S, T extends CustomResource<?, S>> T putStatus(KubernetesClient client, Action.PutStatus<S, T> put) {
        Resource<T> resource = named(client, put.kind(), put.namespace(), put.name());
        T existing = resource.get();
        if (existing == null) {
            T created = put.fresh().get();
            created.setMetadata(new ObjectMetaBuilder().withName(put.name()).withNamespace(put.namespace()).build());
            client.resource(created).create();
        } else if (Objects.equals(put.status(), existing.getStatus())) {
            return null;
        }
        return resource.editStatus(o -> {
            o.setStatus(put.status());
            return o;
        });
    }

    /** The edit, applied only to the object with {@code uid}; another of the same name (recreated meanwhile) is left as it is. */
    private static <T extends HasMetadata> UnaryOperator<T> sameUid(String uid, UnaryOperator<T> edit) {
        return current -> uid.equals(current.getMetadata().getUid()) ? edit.apply(current) : current;
    }

    private static <T extends HasMetadata> Resource<T> named(KubernetesClient client, Class<T> kind, String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? client.resources(kind).withName(name)
                : client.resources(kind).inNamespace(namespace).withName(name);
    }
}
