package io.periscope.kubernetes.routeagent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.health.GatewayHealth;
import io.periscope.dataplane.health.HealthMessages;
import io.periscope.dataplane.health.HealthTargets;
import io.periscope.dataplane.health.HealthView;
import io.periscope.dataplane.health.Prober;
import io.periscope.dataplane.ovs.BridgeChange;
import io.periscope.dataplane.ovs.OvsBridgeProgrammer;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.dataplane.reconcile.ReconcileResult;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.kubernetes.crd.RouteAgentResource;
import io.periscope.kubernetes.crd.RouteAgentStatus;
import io.periscope.kubernetes.nodeplan.DefaultInterfaceOnce;
import io.periscope.kubernetes.nodeplan.LiveNodePlan;
import io.periscope.kubernetes.nodeplan.NodeAgentSettings;
import io.periscope.kubernetes.runtime.Action;
import io.periscope.kubernetes.runtime.Controller;
import io.periscope.kubernetes.runtime.ControllerRuntime;
import io.periscope.kubernetes.runtime.Pass;
import io.periscope.kubernetes.runtime.Snapshot;
import io.periscope.plan.DataplanePlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The route agent: one per node (a DaemonSet). It programs its node's plan while the node is not an
 * active gateway (an ordinary node, or a gateway waiting on the lease); on an active gateway the
 * gateway agent programs the whole layer, and this one stands aside. Both plan from the same objects
 * with the same planner, so they agree on which node is which. It health-checks the active
 * gateways it load-balances to, withdraws the silent ones from its routes, steers the headless pods a
 * silent gateway owned (per-gateway egress ownership) to the owners among the live ones, and says
 * which it considers up in the node's RouteAgent object. On an OVN-Kubernetes node it also keeps the
 * node's Submariner bridge ({@code br-submariner} with {@code ovn-k8s-sub0}) through
 * {@link OvsBridgeProgrammer}, on every node, gateway or not.
 *
 * <p>It runs on the {@link ControllerRuntime} (informers, level loop; no lease: every node programs
 * itself). Its pass programs the kernel at its edge (see {@link Controller}) and returns the
 * RouteAgent status for the runtime to write.
 */
public final class RouteAgent implements Controller, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RouteAgent.class);

    private final NodeAgentSettings settings;
    private final Reconciler reconciler;
    private final OvsBridgeProgrammer bridges;
    private final DefaultInterfaceOnce defaultInterface;
    private final ControllerRuntime runtime;
    private final GatewayHealth health;
    private volatile Optional<ReconcileResult> lastReconcile = Optional.empty();
    private volatile boolean standingAside;
    private volatile List<BridgeChange> lastBridges = List.of();

    /** An agent that does not health-check its gateways (tests of everything else). */
    public RouteAgent(KubernetesClient client, NodeAgentSettings settings, CommandRunner runner) {
        this(client, settings, runner, KernelWatch.NONE, GatewayHealth.OFF);
    }

    /**
     * @param watch   of the namespace {@code runner}'s programs run in: spares reads of what did not change
     * @param probers opens the prober of the node's gateways, in the namespace {@code runner}'s programs run in
     */
    public RouteAgent(KubernetesClient client, NodeAgentSettings settings, CommandRunner runner, KernelWatch watch,
                      Supplier<Prober> probers) {
        this.settings = settings;
        this.reconciler = new Reconciler(runner, Ownership.submariner(), watch);
        // The node's own Open vSwitch, at ovs-vsctl's default socket, as upstream's handler reached it.
        this.bridges = new OvsBridgeProgrammer(runner, Optional.empty());
        this.defaultInterface = new DefaultInterfaceOnce(runner, settings.nodeName());
        this.runtime = ControllerRuntime.builder("route-agent-" + settings.nodeName(), client)
                .liveObjects(settings.namespace(), settings.clusterId())
                .resync(settings.resync()).retry(Duration.ofSeconds(2))
                .build(this);
        this.health = new GatewayHealth(probers, settings.health(), Clock.systemUTC(), runtime::signal);
    }

    /** Which of its cluster's active gateways this node considers up and down. */
    public HealthView health() {
        return health.view();
    }

    public RouteAgent start() {
        runtime.start();
        return this;
    }

    public Optional<ReconcileResult> lastReconcile() {
        return lastReconcile;
    }

    /** What the last pass changed of the node's OVS bridges (OVN-Kubernetes nodes). */
    public List<BridgeChange> lastBridges() {
        return lastBridges;
    }

    /** Whether the last pass found the node to be an active gateway, left to the gateway agent. */
    public boolean standingAside() {
        return standingAside;
    }

    public long passes() {
        return runtime.passes();
    }

    @Override
    public Pass pass(Snapshot snapshot) {
        LiveNodePlan nodePlan = LiveNodePlan.of(snapshot.live(), settings.nodeName(), defaultInterface.link());
        if (nodePlan.host().isEmpty()) {
            LOG.warn("route agent {}: the model has no node {} in cluster {} yet", settings.nodeName(), settings.nodeName(), settings.clusterId());
            return Pass.NOTHING;
        }
        if (nodePlan.onOvnKubernetes()) {
            // Every node's, the active gateway's too: upstream's OVN handler made br-submariner on all of them,
            // before the layer whose routes go through ovn-k8s-sub0.
            lastBridges = bridges.program(nodePlan.bridges());
        }
        standingAside = nodePlan.activeGateway();
        if (standingAside) {
            return Pass.NOTHING;
        }
        // The edge: the reconciler compares the node's kernel with the plan and programs the difference.
        DataplanePlan desired = health.desired(nodePlan::submarinerWith, HealthTargets.gatewayNames(nodePlan.plan()));
        lastReconcile = Optional.of(reconciler.reconcile(desired));
        return Pass.writing(status(health.view()));
    }

    /** The node's RouteAgent object says which gateways it considers up; written only when that changed. */
    private Action status(HealthView view) {
        List<RouteAgentStatus.GatewayHealthStatus> gateways = new ArrayList<>();
        view.peers().forEach((target, peer) -> gateways.add(new RouteAgentStatus.GatewayHealthStatus(target.gateway(), target.probe().toString(),
                peer.up() ? RouteAgentStatus.GatewayHealthStatus.UP : RouteAgentStatus.GatewayHealthStatus.DOWN,
                peer.lastTransition().toString(), HealthMessages.describe(target, peer, health.settings()))));
        return new Action.PutStatus<>(RouteAgentResource.class, RouteAgentResource::new, settings.namespace(), settings.nodeName(),
                new RouteAgentStatus(gateways));
    }

    @Override
    public void stopped() {
        health.close();
    }

    @Override
    public void close() {
        runtime.close();
    }
}
