package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Submariner's {@code Endpoint}: one per active gateway, published by the gateway agent and shared through the broker. */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Kind("Endpoint")
@Singular("endpoint")
@Plural("endpoints")
public class SubmarinerEndpoint extends CustomResource<EndpointSpec, Void> implements Namespaced {
}
