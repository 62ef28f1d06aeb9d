package io.periscope.kubernetes.gateway;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.health.GatewayHealth;
import io.periscope.dataplane.health.HealthMessages;
import io.periscope.dataplane.health.HealthTarget;
import io.periscope.dataplane.health.HealthTargets;
import io.periscope.dataplane.health.HealthView;
import io.periscope.dataplane.health.PeerHealth;
import io.periscope.dataplane.health.Prober;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.dataplane.reconcile.ReconcileResult;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayConnection;
import io.periscope.kubernetes.crd.GatewayStatus;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPStatus;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.nodeplan.DefaultInterfaceOnce;
import io.periscope.kubernetes.nodeplan.EndpointConversion;
import io.periscope.kubernetes.nodeplan.LiveNodePlan;
import io.periscope.kubernetes.nodeplan.NodeAgentSettings;
import io.periscope.kubernetes.runtime.Action;
import io.periscope.kubernetes.runtime.Api;
import io.periscope.kubernetes.runtime.Controller;
import io.periscope.kubernetes.runtime.ControllerRuntime;
import io.periscope.kubernetes.runtime.Pass;
import io.periscope.kubernetes.runtime.Snapshot;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.Cluster;
import io.periscope.plan.DataplanePlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The gateway agent: one per node labelled {@code submariner.io/gateway=true} (a DaemonSet). It
 * stands for its node's gateway lease: the cluster's single lease, or with
 * {@code --multi-active-gateway} a lease of its own (seed 004: "a semaphore per node"). While its
 * node is an active gateway it programs the node's whole Periscope layer through the dataplane
 * {@link Reconciler} (level-driven: every pass compares the kernel with the plan), publishes the
 * node's Endpoint and removes Endpoints of its cluster's gateways that are no longer active.
 * Either way it keeps the node's Gateway status current ({@code active} or {@code passive}).
 *
 * <p>It runs on the {@link ControllerRuntime} (informers, level loop, the gateway lease: passes run
 * whether it leads or not, since a passive gateway writes its status too). Its pass programs the
 * kernel at its edge (see {@link Controller}) and returns every API write for the runtime to make.
 */
public final class GatewayAgent implements Controller, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayAgent.class);
    private static final String VERSION = "periscope";

    private final NodeAgentSettings settings;
    private final Reconciler reconciler;
    private final DefaultInterfaceOnce defaultInterface;
    private final ControllerRuntime runtime;
    private final GatewayHealth health;
    private volatile Optional<ReconcileResult> lastReconcile = Optional.empty();

    /** An agent that does not health-check remote gateways (tests of everything else). */
    public GatewayAgent(KubernetesClient client, NodeAgentSettings settings, CommandRunner runner) {
        this(client, settings, runner, KernelWatch.NONE, GatewayHealth.OFF);
    }

    /**
     * @param watch   of the namespace {@code runner}'s programs run in: spares reads of what did not change
     * @param probers opens the prober of the remote gateways, in the namespace {@code runner}'s programs run in
     */
    public GatewayAgent(KubernetesClient client, NodeAgentSettings settings, CommandRunner runner, KernelWatch watch,
                        Supplier<Prober> probers) {
        this.settings = settings;
        this.reconciler = new Reconciler(runner, Ownership.submariner(), watch);
        this.defaultInterface = new DefaultInterfaceOnce(runner, settings.nodeName());
        this.runtime = ControllerRuntime.builder("gateway-" + settings.nodeName(), client)
                .liveObjects(settings.namespace(), settings.clusterId())
                .lease(settings.namespace(), LiveObjectsReader.gatewayLease(settings.multiActiveGateway(), settings.nodeName()),
                        settings.nodeName(), settings.timings())
                .resync(settings.resync()).retry(Duration.ofSeconds(2))
                .build(this);
        this.health = new GatewayHealth(probers, settings.health(), Clock.systemUTC(), runtime::signal);
    }

    /** Watches the cluster, then stands for the lease; returns once the informers hold the initial lists. */
    public GatewayAgent start() {
        runtime.start();
        return this;
    }

    public boolean leading() {
        return runtime.leading();
    }

    /** The last reconcile this agent ran, for tests and the logs. */
    public Optional<ReconcileResult> lastReconcile() {
        return lastReconcile;
    }

    public long passes() {
        return runtime.passes();
    }

    /** Which remote gateways this gateway considers up and down. */
    public HealthView health() {
        return health.view();
    }

    @Override
    public Pass pass(Snapshot snapshot) {
        LiveObjects live = snapshot.live();
        LiveNodePlan nodePlan;
        try {
            nodePlan = LiveNodePlan.of(live, settings.nodeName(), defaultInterface.link());
        } catch (RuntimeException e) {
            // The planner refused the model (a Cluster object the model cannot use): say so, program nothing.
            return Pass.writing(gatewayStatus(GatewayStatus.PASSIVE, null, "cannot plan this node: " + e.getMessage(), List.of()));
        }
        nodePlan.model().problems().forEach(p -> LOG.debug("model: {}", p));
        Optional<Cluster> cluster = nodePlan.cluster();
        Optional<String> failure = Optional.empty();
        if (cluster.isEmpty()) {
            failure = Optional.of("no Cluster object for cluster " + settings.clusterId() + " in namespace " + settings.namespace());
        } else if (cluster.get().multiActiveGateways() != settings.multiActiveGateway()) {
            failure = Optional.of("the agent runs " + (settings.multiActiveGateway() ? "with" : "without") + " --multi-active-gateway but Cluster "
                    + settings.clusterId() + " has multi_active_gateways: " + cluster.get().multiActiveGateways() + "; make them agree");
        }
        boolean active = failure.isEmpty() && snapshot.leading() && nodePlan.activeGateway();
        List<Action> writes = new ArrayList<>();
        if (!active) {
            ownEndpoint(live).ifPresent(writes::add);
            writes.add(gatewayStatus(GatewayStatus.PASSIVE, null, failure.orElse(null), List.of()));
            writes.addAll(programmed(live, Optional.empty()));
            return Pass.writing(writes);
        }
        String connectionState = GatewayConnection.CONNECTED;
        String message = "cable programmed (" + nodePlan.model().clusterSet().defaultCableDriver().yamlName() + ")";
        String statusFailure = null;
        try {
            // The edge: the reconciler compares the node's kernel with the plan and programs the difference;
            // how that went is what the Gateway status and the programmed conditions report.
            DataplanePlan desired = health.desired(nodePlan::submarinerWith, HealthTargets.gatewayNames(nodePlan.plan()));
            ReconcileResult result = reconciler.reconcile(desired);
            lastReconcile = Optional.of(result);
        } catch (RuntimeException e) {
            connectionState = GatewayConnection.ERROR;
            message = "programming the node failed: " + e.getMessage();
            statusFailure = message;
            LOG.warn("gateway {}: {}", settings.nodeName(), message);
        }
        Optional<Endpoint> own = nodePlan.ownEndpoint();
        EndpointSpec ownSpec = own.map(EndpointConversion::toSpec).orElse(null);
        if (own.isPresent()) {
            publishEndpoint(own.get(), ownSpec, live).ifPresent(writes::add);
        }
        writes.addAll(removeInactiveEndpoints(nodePlan, live));
        writes.add(gatewayStatus(GatewayStatus.ACTIVE, ownSpec, statusFailure, connections(nodePlan, live, connectionState, message)));
        writes.addAll(programmed(live, Optional.of(Optional.ofNullable(statusFailure))));
        return Pass.writing(writes);
    }

    /** Seed 004: tells the Globalnet objects' users, in their status, that this node's rules for them are programmed. */
    private List<Action> programmed(LiveObjects live, Optional<Optional<String>> programmed) {
        List<Action> writes = new ArrayList<>();
        for (ProgrammedConditions.Edit edit : ProgrammedConditions.edits(live, settings.nodeName(), settings.multiActiveGateway(), programmed,
                Instant.now())) {
            writes.add(switch (edit.kind()) {
                case "ClusterGlobalEgressIP" -> new Action.EditStatus<>(ClusterGlobalEgressIPResource.class, edit.namespace(), edit.name(),
                        edit.uid(), o -> {
                            if (o.getStatus() != null) {
                                o.setStatus(withCondition(o.getStatus(), edit));
                            }
                            return o;
                        });
                case "GlobalEgressIP" -> new Action.EditStatus<>(GlobalEgressIPResource.class, edit.namespace(), edit.name(), edit.uid(), o -> {
                    if (o.getStatus() != null) {
                        o.setStatus(withCondition(o.getStatus(), edit));
                    }
                    return o;
                });
                default -> new Action.EditStatus<>(GlobalIngressIPResource.class, edit.namespace(), edit.name(), edit.uid(), o -> {
                    if (o.getStatus() != null) {
                        GlobalIngressIPStatus status = o.getStatus();
                        o.setStatus(new GlobalIngressIPStatus(ProgrammedConditions.apply(status.conditions(), settings.nodeName(), edit.condition()),
                                status.allocatedIP(), status.gateway()));
                    }
                    return o;
                });
            });
        }
        return writes;
    }

    private AllocationStatus withCondition(AllocationStatus status, ProgrammedConditions.Edit edit) {
        return new AllocationStatus(ProgrammedConditions.apply(status.conditions(), settings.nodeName(), edit.condition()), status.allocatedIPs(),
                status.gatewaySlices());
    }

    private List<GatewayConnection> connections(LiveNodePlan nodePlan, LiveObjects live, String state, String message) {
        ClusterGraph graph = ClusterGraph.of(nodePlan.model().clusterSet());
        Set<String> peers = Set.copyOf(graph.peersOf(settings.clusterId()));
        List<GatewayConnection> connections = new ArrayList<>();
        for (SubmarinerEndpoint endpoint : live.endpoints()) {
            EndpointSpec spec = endpoint.getSpec();
            if (spec != null && peers.contains(spec.clusterId())) {
                Optional<Map.Entry<HealthTarget, PeerHealth>> probed = health.view().peers().entrySet().stream()
                        .filter(e -> e.getKey().gateway().equals(spec.clusterId() + "/" + spec.hostname())).findFirst();
                String connectionState = state;
                String connectionMessage = message;
                String lastTransition = null;
                if (state.equals(GatewayConnection.CONNECTED) && probed.isPresent()) {
                    connectionState = probed.get().getValue().up() ? GatewayConnection.CONNECTED : GatewayConnection.ERROR;
                    connectionMessage = HealthMessages.describe(probed.get().getKey(), probed.get().getValue(), health.settings());
                    lastTransition = probed.get().getValue().lastTransition().toString();
                } else if (state.equals(GatewayConnection.CONNECTED)) {
                    connectionMessage = message + "; " + health.unavailable().orElse("not health-checked: the only way to its cluster");
                }
                connections.add(new GatewayConnection(connectionState, connectionMessage, spec,
                        spec.publicIp() != null ? spec.publicIp() : spec.privateIp(), false, lastTransition));
            }
        }
        return connections;
    }

    private Optional<Action> publishEndpoint(Endpoint endpoint, EndpointSpec spec, LiveObjects live) {
        boolean current = live.endpoints().stream().anyMatch(e -> e.getMetadata().getName().equals(endpoint.name()) && spec.equals(e.getSpec()));
        if (current) {
            return Optional.empty();
        }
        SubmarinerEndpoint object = new SubmarinerEndpoint();
        object.setMetadata(new ObjectMetaBuilder().withName(endpoint.name()).withNamespace(settings.namespace()).build());
        object.setSpec(spec);
        return Optional.of(new Action.CreateOrUpdate(Api.LOCAL, object));
    }

    /** Endpoints of this cluster whose gateway is no longer active (its node failed, or lost the lease). */
    private List<Action> removeInactiveEndpoints(LiveNodePlan nodePlan, LiveObjects live) {
        Set<String> active = nodePlan.plan().endpoints().stream().filter(e -> e.clusterId().equals(settings.clusterId()))
                .map(Endpoint::name).collect(Collectors.toSet());
        List<Action> deletes = new ArrayList<>();
        for (SubmarinerEndpoint endpoint : live.endpoints()) {
            boolean local = endpoint.getSpec() != null && settings.clusterId().equals(endpoint.getSpec().clusterId());
            boolean synced = endpoint.getMetadata().getLabels() != null && endpoint.getMetadata().getLabels().containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);
            if (local && !synced && !active.contains(endpoint.getMetadata().getName())) {
                deletes.add(deleteEndpoint(endpoint.getMetadata().getName()));
            }
        }
        return deletes;
    }

    /** This node's Endpoint, to delete, while the caches hold it. */
    private Optional<Action> ownEndpoint(LiveObjects live) {
        String name = EndpointConversion.endpointName(settings.clusterId(), settings.nodeName());
        return live.endpoints().stream().map(e -> e.getMetadata().getName()).filter(name::equals).findFirst().map(this::deleteEndpoint);
    }

    private Action deleteEndpoint(String endpointName) {
        return new Action.DeleteNamed(Api.LOCAL, SubmarinerEndpoint.class, settings.namespace(), endpointName, Optional.empty());
    }

    private Action gatewayStatus(String haStatus, EndpointSpec localEndpoint, String failure, List<GatewayConnection> connections) {
        return new Action.PutStatus<>(Gateway.class, Gateway::new, settings.namespace(), settings.nodeName(),
                new GatewayStatus(VERSION, haStatus, localEndpoint, failure, connections));
    }

    @Override
    public void stopped() {
        health.close();
    }

    /** Its rules are no longer looked after once it stops: its conditions go with it, and so does its Endpoint. */
    @Override
    public List<Action> closing(Snapshot last) {
        List<Action> writes = new ArrayList<>(programmed(last.live(), Optional.empty()));
        ownEndpoint(last.live()).ifPresent(writes::add);
        return writes;
    }

    /** Stops programming, releases the lease (a standby takes over within a retry period) and removes the node's Endpoint. */
    @Override
    public void close() {
        runtime.close();
    }
}
