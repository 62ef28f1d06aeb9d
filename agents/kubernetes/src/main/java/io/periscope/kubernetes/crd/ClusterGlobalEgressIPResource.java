package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The cluster's egress addresses. Cluster-scoped (it does not implement {@code Namespaced}), so that RBAC can keep it to cluster admins; only
 * {@code cluster-egress.submariner.io} (or, with multiple active gateways, one per gateway) is honoured.
 *
 * <p>Kind {@code ClusterGlobalEgressIP}; the class is named apart from the model's record {@code ClusterGlobalEgressIP}
 * (in {@code io.periscope.model.globalnet}), which the model builder makes of it.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Kind("ClusterGlobalEgressIP")
public class ClusterGlobalEgressIPResource extends CustomResource<ClusterGlobalEgressIPSpec, AllocationStatus> {
}
