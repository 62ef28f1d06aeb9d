package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Egress addresses for a namespace's pods, or for the pods a selector picks in it (seed 002).
 *
 * <p>Kind {@code GlobalEgressIP}; the class is named apart from the model's record {@code GlobalEgressIP}
 * (in {@code io.periscope.model.globalnet}), which the model builder makes of it.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Kind("GlobalEgressIP")
public class GlobalEgressIPResource extends CustomResource<GlobalEgressIPSpec, AllocationStatus> implements Namespaced {
}
