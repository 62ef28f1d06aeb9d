package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.GlobalIngressIPStatus;
import io.periscope.model.net.Ipv4Address;

/**
 * What one Globalnet pass wants done to the API. Computed purely from the allocation book and the
 * objects seen; the controller carries them out, and a failure is simply found again in the next pass.
 */
public sealed interface GlobalnetAction {

    ObjectKey key();

    record Create(ObjectKey key, HasMetadata object) implements GlobalnetAction {
    }

    /** Deletes the object only while it still has {@code uid}: a recreated one is left alone. */
    record Delete(ObjectKey key, String uid) implements GlobalnetAction {
    }

    /** Status of a ClusterGlobalEgressIP or GlobalEgressIP, written only while the object still has {@code uid}. */
    record WriteEgressStatus(ObjectKey key, String uid, AllocationStatus status) implements GlobalnetAction {
    }

    /**
     * Sets the {@code submariner.io/globalIp} annotation of a Gateway (its own global IP), or with
     * legacy Globalnet of a Service, Pod or Node (or removes it when {@code address} is empty), only
     * while the object still has {@code uid}.
     */
    record Annotate(ObjectKey key, String uid, java.util.Optional<Ipv4Address> address) implements GlobalnetAction {
    }

    record WriteIngressStatus(ObjectKey key, String uid, GlobalIngressIPStatus status) implements GlobalnetAction {
    }
}
