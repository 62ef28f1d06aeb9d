package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** One per gateway node, named after the node; it has only a status, written by that node's gateway agent. */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
public class Gateway extends CustomResource<Void, GatewayStatus> implements Namespaced {
}
