package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One per gateway node, named after the node; its status is written by that node's gateway agent. With
 * Globalnet its {@code submariner.io/globalIp} annotation holds the gateway's own global IP (its
 * health-check address), written by the Globalnet controller, as upstream 0.18 on keeps it there.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
public class Gateway extends CustomResource<Void, GatewayStatus> implements Namespaced {
}
