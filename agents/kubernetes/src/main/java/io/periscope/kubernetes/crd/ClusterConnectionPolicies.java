package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Seed 001's ClusterConnectionPolicies: "a singleton with a well-known name", kept on the broker and
 * synced to every cluster. Only the object named {@value #WELL_KNOWN_NAME} (the name of the seed's
 * examples) is synced and read; any other is ignored and says so in its status.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Singular("clusterconnectionpolicies")
@Plural("clusterconnectionpolicies")
public class ClusterConnectionPolicies extends CustomResource<ClusterConnectionPoliciesSpec, PolicyStatus> implements Namespaced {

    /** The singleton's name, as seed 001's examples spell it. */
    public static final String WELL_KNOWN_NAME = "cluster-connection-policies";
}
