package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** Seed 001's ClusterConnectivityPolicy; kept on the broker and synced to every cluster. None at all means full mesh. */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
public class ClusterConnectivityPolicy extends CustomResource<ClusterConnectivityPolicySpec, Void> implements Namespaced {
}
