package io.periscope.kubernetes.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

/**
 * An informer's handler that wakes a {@link LevelLoop} on every add, update and delete, whatever the
 * object: the pass reads the informers' caches, so which event it was does not matter.
 */
public record SignalOnChange<T extends HasMetadata>(Runnable signal) implements ResourceEventHandler<T> {

    @Override
    public void onAdd(T obj) {
        signal.run();
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        signal.run();
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        signal.run();
    }
}
