package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Seed 001's ClusterConnectionPolicies; kept on the broker and synced to every cluster. */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Singular("clusterconnectionpolicies")
@Plural("clusterconnectionpolicies")
public class ClusterConnectionPolicies extends CustomResource<ClusterConnectionPoliciesSpec, Void> implements Namespaced {
}
