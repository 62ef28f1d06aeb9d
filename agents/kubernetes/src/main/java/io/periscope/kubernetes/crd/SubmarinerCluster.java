package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Submariner's {@code Cluster}: one per member cluster, named after the cluster id, shared through
 * the broker. Its labels are what ClusterConnectivityPolicy and ClusterConnectionPolicies select on.
 * Its status (Periscope's) says how the broker settled the cluster's GlobalCIDR.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Kind("Cluster")
@Singular("cluster")
@Plural("clusters")
public class SubmarinerCluster extends CustomResource<ClusterSpec, ClusterStatus> implements Namespaced {
}
