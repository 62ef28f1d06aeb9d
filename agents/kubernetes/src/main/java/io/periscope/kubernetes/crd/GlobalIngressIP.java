package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An ingress address, created only by the Globalnet controller ({@code svc-<service>} or
 * {@code pod-<pod>}); RBAC gives nobody else the right to create one.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
public class GlobalIngressIP extends CustomResource<GlobalIngressIPSpec, GlobalIngressIPStatus> implements Namespaced {
}
