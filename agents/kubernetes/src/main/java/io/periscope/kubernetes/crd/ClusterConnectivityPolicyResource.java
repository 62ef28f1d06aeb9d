package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Seed 001's ClusterConnectivityPolicy; kept on the broker and synced to every cluster. None at all means full mesh.
 *
 * <p>Kind {@code ClusterConnectivityPolicy}; the class is named apart from the model's record {@code ClusterConnectivityPolicy}
 * (in {@code io.periscope.model.policy}), which the model builder makes of it.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Kind("ClusterConnectivityPolicy")
public class ClusterConnectivityPolicyResource extends CustomResource<ClusterConnectivityPolicySpec, Void> implements Namespaced {
}
