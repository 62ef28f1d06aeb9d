package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An ingress address, created only by the Globalnet controller ({@code svc-<service>} or
 * {@code pod-<pod>}); RBAC gives nobody else the right to create one.
 *
 * <p>Kind {@code GlobalIngressIP}; the class is named apart from the model's record {@code GlobalIngressIP}
 * (in {@code io.periscope.model.globalnet}), which the model builder makes of it.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Kind("GlobalIngressIP")
public class GlobalIngressIPResource extends CustomResource<GlobalIngressIPSpec, GlobalIngressIPStatus> implements Namespaced {
}
