package io.periscope.kubernetes.routeagent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.agent.command.CommandRunner;
import io.periscope.agent.reconcile.Ownership;
import io.periscope.agent.reconcile.ReconcileResult;
import io.periscope.agent.reconcile.Reconciler;
import io.periscope.agent.watch.KernelWatch;
import io.periscope.kubernetes.nodeplan.LiveNodePlan;
import io.periscope.kubernetes.nodeplan.NodeAgentSettings;
import io.periscope.kubernetes.watch.LevelLoop;
import io.periscope.kubernetes.watch.LiveObjectsInformers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;

/**
 * The route agent: one per node (a DaemonSet). It programs its node's plan while the node is not an
 * active gateway (an ordinary node, or a gateway waiting on the lease); on an active gateway the
 * gateway agent programs the whole layer, and this one stands aside. Both plan from the same objects
 * with the same planner, so they agree on which node is which.
 */
public final class RouteAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RouteAgent.class);

    private final KubernetesClient client;
    private final NodeAgentSettings settings;
    private final Reconciler reconciler;
    private final LevelLoop loop;
    private LiveObjectsInformers informers;
    private volatile Optional<ReconcileResult> lastReconcile = Optional.empty();
    private volatile boolean standingAside;

    public RouteAgent(KubernetesClient client, NodeAgentSettings settings, CommandRunner runner) {
        this(client, settings, runner, KernelWatch.NONE);
    }

    /** {@code watch}, of the namespace {@code runner}'s programs run in, spares reads of what did not change. */
    public RouteAgent(KubernetesClient client, NodeAgentSettings settings, CommandRunner runner, KernelWatch watch) {
        this.client = client;
        this.settings = settings;
        this.reconciler = new Reconciler(runner, Ownership.submariner(), watch);
        this.loop = new LevelLoop("route-agent-" + settings.nodeName(), this::pass, settings.resync(), Duration.ofSeconds(2));
    }

    public RouteAgent start() {
        informers = new LiveObjectsInformers(client, settings.namespace(), settings.clusterId(), loop::signal);
        loop.start();
        return this;
    }

    public Optional<ReconcileResult> lastReconcile() {
        return lastReconcile;
    }

    /** Whether the last pass found the node to be an active gateway, left to the gateway agent. */
    public boolean standingAside() {
        return standingAside;
    }

    public long passes() {
        return loop.passes();
    }

    private void pass() {
        LiveNodePlan nodePlan = LiveNodePlan.of(informers.snapshot(), settings.nodeName());
        if (nodePlan.host().isEmpty()) {
            LOG.warn("route agent {}: the model has no node {} in cluster {} yet", settings.nodeName(), settings.nodeName(), settings.clusterId());
            return;
        }
        standingAside = nodePlan.activeGateway();
        if (standingAside) {
            return;
        }
        lastReconcile = Optional.of(reconciler.reconcile(nodePlan.host().get().submariner()));
    }

    @Override
    public void close() {
        loop.close();
        if (informers != null) {
            informers.close();
        }
    }
}
