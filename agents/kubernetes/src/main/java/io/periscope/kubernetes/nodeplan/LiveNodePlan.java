package io.periscope.kubernetes.nodeplan;

import io.periscope.dataplane.ovs.NodeBridge;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.NodeLink;
import io.periscope.plan.DeviceRename;
import io.periscope.plan.Names;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.OvsBridge;
import io.periscope.planner.DownGateways;
import io.periscope.planner.Planner;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One node's plan from live objects: the model the topology file would give, the addresses in the
 * Globalnet objects' status, then the same pure {@link Planner} the simulator and the lab use. The
 * gateway agent and the route agent both start here, so they always agree on whose node is whose.
 *
 * @param host empty when the model has no such node (not yet, or the Cluster object is missing)
 */
public record LiveNodePlan(LiveModel model, ClusterSetPlan plan, Optional<HostPlan> host, String clusterId, String node,
                           Optional<NodeLink> ownLink) {

    /** A node whose interface is left as the lab's ({@code eth0}, {@code wan0}, MTU 1500): tests of everything else. */
    public static LiveNodePlan of(LiveObjects live, String node) {
        return of(live, node, Optional.empty());
    }

    /**
     * @param ownLink the node's default interface as its agent discovered it: the node is planned with
     *                it, and the layer it programs names it where the lab's plans say {@code wan0}
     */
    public static LiveNodePlan of(LiveObjects live, String node, Optional<NodeLink> ownLink) {
        LiveModel built = ClusterModelBuilder.build(live.clusterId(), List.of(live));
        LiveModel model = ownLink.map(link -> withLink(built, live.clusterId(), node, link)).orElse(built);
        ClusterSetPlan plan = Planner.plan(model.clusterSet(), model.addresses());
        return new LiveNodePlan(model, plan, plan.host(HostId.node(live.clusterId(), node)), live.clusterId(), node, ownLink);
    }

    private static LiveModel withLink(LiveModel model, String clusterId, String node, NodeLink link) {
        ClusterSet set = model.clusterSet();
        ClusterSet linked = set.withClusters(set.clusters().stream().map(c -> !c.name().equals(clusterId) ? c
                : c.withNodes(c.nodes().stream().map(n -> n.name().equals(node) ? n.withLink(link) : n).toList())).toList());
        return new LiveModel(linked, model.addresses(), model.problems());
    }

    /** The layer as the node programs it: on a real node, the lab's WAN device is its one default interface. */
    private DataplanePlan bound(DataplanePlan layer) {
        return ownLink.map(link -> DeviceRename.rename(layer, Names.WAN, link.device())).orElse(layer);
    }

    public Optional<Cluster> cluster() {
        return model.clusterSet().cluster(clusterId);
    }

    /**
     * The node's Submariner layer while it considers the named gateways ({@code cluster/node}) down:
     * the same model and addresses, planned with those gateways' ownership moved to the live ones
     * ({@link DownGateways}). With none down it is this plan's. What a health-checking agent hands
     * its {@link io.periscope.dataplane.health.GatewayHealth}.
     */
    public DataplanePlan submarinerWith(Set<String> down) {
        HostPlan own = host.orElseThrow(() -> new IllegalStateException("the model has no node " + node + " in cluster " + clusterId));
        if (down.isEmpty()) {
            return bound(own.submariner());
        }
        return bound(Planner.plan(model.clusterSet(), model.addresses(), DownGateways.of(down)).host(own.id()).orElseThrow().submariner());
    }

    /** Whether the node's cluster runs on OVN-Kubernetes, where the route agent keeps the node's OVS bridges. */
    public boolean onOvnKubernetes() {
        return cluster().map(c -> c.cni() == Cni.OVN_KUBERNETES).orElse(false);
    }

    /**
     * The bridges the plan gives the node ({@code br-submariner} with {@code ovn-k8s-sub0} under
     * seed 003's architecture; none under upstream's, where the agent deletes the old one as
     * upstream's {@code LegacyCleanup} does).
     */
    public List<NodeBridge> bridges() {
        List<OvsBridge> rows = plan.ovn(clusterId).map(OvnTopology::bridges).orElse(List.of());
        return NodeBridge.forNode(node, rows, host.map(HostPlan::interfaces).orElse(List.of()));
    }

    /** Whether the planner made this node an active gateway. */
    public boolean activeGateway() {
        return host.map(h -> h.role() == HostPlan.HostRole.GATEWAY).orElse(false);
    }

    /** The Endpoint this node publishes while it is an active gateway. */
    public Optional<Endpoint> ownEndpoint() {
        return plan.endpoints().stream().filter(e -> e.clusterId().equals(clusterId) && e.hostname().equals(node)).findFirst();
    }
}
