package io.periscope.kubernetes.networkpluginsyncer;

import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.ovn.NbChange;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Cni;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.Names;
import io.periscope.planner.Planner;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One pass of the network plugin syncer: the live objects to the model, the model to the plan, this
 * cluster's {@link OvnTopology} into the northbound database through the programmer (Submariner's
 * scope). The programmer is the only side effect ({@link #program}); everything before it
 * ({@link #plan}) is pure and decides whether there is anything to program at all.
 */
final class SyncerPass {

    /**
     * OVN-Kubernetes names each node's chassis by its Open vSwitch {@code system-id} and publishes it
     * on the Node object under this annotation; {@code options:chassis} must hold that name, while the
     * plan names the chassis after the node (which is also what the lab's chassis are called).
     */
    static final String CHASSIS_ID_ANNOTATION = "k8s.ovn.org/node-chassis-id";

    private SyncerPass() {
    }

    /** What a pass found: nothing to program (and why), or the topology to program. */
    sealed interface Plan {
    }

    record NothingToProgram(SyncOutcome outcome) implements Plan {
    }

    /** This cluster's OVN topology with its chassis named as OVN knows them; {@code chassis} is submariner_router's. */
    record ToProgram(OvnTopology topology, String chassis) implements Plan {
    }

    /** The plan and, at the edge, the database brought to it. */
    static SyncOutcome run(LiveObjects live, String namespace, NorthboundProgrammer programmer) {
        return switch (plan(live, namespace)) {
            case NothingToProgram nothing -> nothing.outcome();
            case ToProgram program -> program(program, programmer);
        };
    }

    /** Pure: whether there is anything to program, and what. */
    static Plan plan(LiveObjects live, String namespace) {
        LiveModel model = ClusterModelBuilder.build(live.clusterId(), List.of(live));
        Optional<Cluster> cluster = model.clusterSet().cluster(live.clusterId());
        if (cluster.isEmpty()) {
            return new NothingToProgram(new SyncOutcome.NoClusterObject(live.clusterId(), namespace));
        }
        if (cluster.get().cni() != Cni.OVN_KUBERNETES) {
            return new NothingToProgram(new SyncOutcome.NotOvnKubernetes(live.clusterId(), cluster.get().cni()));
        }
        if (cluster.get().activeGateways().isEmpty()) {
            return new NothingToProgram(new SyncOutcome.NoGateway(live.clusterId()));
        }
        OvnTopology topology;
        try {
            ClusterSetPlan plan = Planner.plan(model.clusterSet(), model.addresses());
            topology = plan.ovn(live.clusterId()).orElseThrow(() -> new IllegalStateException("the plan has no OVN topology for " + live.clusterId()));
        } catch (RuntimeException e) {
            return new NothingToProgram(new SyncOutcome.CannotPlan(e.getMessage()));
        }
        OvnTopology onChassis = withChassisIds(topology, chassisIds(live));
        return new ToProgram(onChassis, onChassis.router(Names.SUBMARINER_ROUTER).flatMap(LogicalRouter::chassis).orElse("none"));
    }

    /** The edge: the programmer reads Submariner's part of the database and writes the difference in one transaction. */
    static SyncOutcome program(ToProgram plan, NorthboundProgrammer programmer) {
        try {
            List<NbChange> changes = programmer.program(plan.topology());
            return changes.isEmpty() ? new SyncOutcome.UpToDate(plan.chassis()) : new SyncOutcome.Programmed(plan.chassis(), changes);
        } catch (CommandFailedException e) {
            return new SyncOutcome.DatabaseFailed(e.getMessage());
        } catch (IllegalStateException e) {
            // The programmer's one refusal: OVN-Kubernetes' rows are not there yet; nothing was changed.
            return new SyncOutcome.WaitingForOvnKubernetes(e.getMessage());
        } catch (RuntimeException e) {
            // ovn-nbctl answered with something that is not a listing (a version that speaks otherwise).
            return new SyncOutcome.DatabaseFailed(e.toString());
        }
    }

    /** Node name to chassis name, for the nodes OVN-Kubernetes has annotated. */
    static Map<String, String> chassisIds(LiveObjects live) {
        Map<String, String> ids = new HashMap<>();
        for (io.fabric8.kubernetes.api.model.Node node : live.nodes()) {
            Map<String, String> annotations = node.getMetadata().getAnnotations();
            String id = annotations == null ? null : annotations.get(CHASSIS_ID_ANNOTATION);
            if (id != null && !id.isBlank()) {
                ids.put(node.getMetadata().getName(), id);
            }
        }
        return ids;
    }

    /** The topology with each bound router's chassis named as OVN knows it; a node without the annotation keeps its name. */
    static OvnTopology withChassisIds(OvnTopology topology, Map<String, String> ids) {
        List<LogicalRouter> routers = topology.routers().stream()
                .map(r -> new LogicalRouter(r.name(), r.ports(), r.policies(), r.staticRoutes(), r.chassis().map(c -> ids.getOrDefault(c, c)),
                        r.loadBalancerGroups()))
                .toList();
        return new OvnTopology(topology.cluster(), routers, topology.switches(), topology.loadBalancerGroups(), topology.bridges());
    }
}
