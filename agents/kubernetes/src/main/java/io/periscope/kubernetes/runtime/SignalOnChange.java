package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

import java.util.Objects;

/**
 * Every informer's handler: wakes the {@link LevelLoop} on every add, update and delete, whatever the
 * object, since the pass reads the informers' caches and which event it was does not matter. The
 * one exception is a Lease renewed by its holder (every retry period): only a change of holder
 * matters, and an expiry is noticed by the periodic pass.
 */
record SignalOnChange<T extends HasMetadata>(Runnable signal) implements ResourceEventHandler<T> {

    @Override
    public void onAdd(T obj) {
        signal.run();
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        if (oldObj instanceof Lease before && newObj instanceof Lease after && Objects.equals(holder(before), holder(after))) {
            return;
        }
        signal.run();
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        signal.run();
    }

    private static String holder(Lease lease) {
        return lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
