package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** Egress addresses for a namespace's pods, or for the pods a selector picks in it (seed 002). */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
public class GlobalEgressIP extends CustomResource<GlobalEgressIPSpec, AllocationStatus> implements Namespaced {
}
