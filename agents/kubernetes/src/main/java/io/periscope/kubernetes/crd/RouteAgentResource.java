package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One per node, named after the node, with only a status: which of its cluster's active gateways
 * the node's route agent considers up, as its health checking found them (upstream's route agents
 * publish a RouteAgent object per node too). Named apart from the agent class that writes it.
 */
@Group(SubmarinerApi.GROUP)
@Version(SubmarinerApi.VERSION)
@Kind("RouteAgent")
@Plural("routeagents")
public class RouteAgentResource extends CustomResource<Void, RouteAgentStatus> implements Namespaced {
}
