package io.periscope.kubernetes.gateway;

import io.periscope.agent.election.LeaseCandidate;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.periscope.agent.command.CommandRunner;
import io.periscope.agent.health.GatewayHealth;
import io.periscope.agent.health.HealthMessages;
import io.periscope.agent.health.HealthTarget;
import io.periscope.agent.health.HealthTargets;
import io.periscope.agent.health.HealthView;
import io.periscope.agent.health.PeerHealth;
import io.periscope.agent.health.Prober;
import io.periscope.agent.reconcile.Ownership;
import io.periscope.agent.reconcile.ReconcileResult;
import io.periscope.agent.reconcile.Reconciler;
import io.periscope.agent.watch.KernelWatch;
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
import io.periscope.kubernetes.leaderelection.LeaseElection;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.nodeplan.EndpointConversion;
import io.periscope.kubernetes.nodeplan.DefaultInterfaceOnce;
import io.periscope.kubernetes.nodeplan.LiveNodePlan;
import io.periscope.kubernetes.nodeplan.NodeAgentSettings;
import io.periscope.kubernetes.watch.LevelLoop;
import io.periscope.kubernetes.watch.LiveObjectsInformers;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.Cluster;
import io.periscope.plan.DataplanePlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
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
 */
public final class GatewayAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayAgent.class);
    private static final String VERSION = "periscope";

    private final KubernetesClient client;
    private final NodeAgentSettings settings;
    private final Reconciler reconciler;
    private final DefaultInterfaceOnce defaultInterface;
    private final LeaseElection election;
    private final LevelLoop loop;
    private final GatewayHealth health;
    private LiveObjectsInformers informers;
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
        this.client = client;
        this.settings = settings;
        this.reconciler = new Reconciler(runner, Ownership.submariner(), watch);
        this.defaultInterface = new DefaultInterfaceOnce(runner, settings.nodeName());
        this.loop = new LevelLoop("gateway-" + settings.nodeName(), this::pass, settings.resync(), Duration.ofSeconds(2));
        this.health = new GatewayHealth(probers, settings.health(), Clock.systemUTC(), loop::signal);
        this.election = new LeaseElection(client, settings.namespace(),
                LiveObjectsReader.gatewayLease(settings.multiActiveGateway(), settings.nodeName()), settings.nodeName(), settings.timings(),
                LeaseCandidate.Leadership.signalling(() -> loop.signal()));
    }

    /** Watches the cluster, then stands for the lease; returns once the informers hold the initial lists. */
    public GatewayAgent start() {
        informers = new LiveObjectsInformers(client, settings.namespace(), settings.clusterId(), loop::signal);
        loop.start();
        election.start();
        return this;
    }

    public boolean leading() {
        return election.leading();
    }

    /** The last reconcile this agent ran, for tests and the logs. */
    public Optional<ReconcileResult> lastReconcile() {
        return lastReconcile;
    }

    public long passes() {
        return loop.passes();
    }

    /** Which remote gateways this gateway considers up and down. */
    public HealthView health() {
        return health.view();
    }

    private void pass() {
        LiveObjects live = informers.snapshot();
        LiveNodePlan nodePlan;
        try {
            nodePlan = LiveNodePlan.of(live, settings.nodeName(), defaultInterface.link());
        } catch (RuntimeException e) {
            // The planner refused the model (a Cluster object the model cannot use): say so, program nothing.
            writeGatewayStatus(GatewayStatus.PASSIVE, null, "cannot plan this node: " + e.getMessage(), List.of());
            return;
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
        boolean active = failure.isEmpty() && election.leading() && nodePlan.activeGateway();
        if (!active) {
            deleteOwnEndpoint();
            writeGatewayStatus(GatewayStatus.PASSIVE, null, failure.orElse(null), List.of());
            reportProgrammed(live, Optional.empty());
            return;
        }
        String connectionState = GatewayConnection.CONNECTED;
        String message = "cable programmed (" + nodePlan.model().clusterSet().defaultCableDriver().yamlName() + ")";
        String statusFailure = null;
        try {
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
            publishEndpoint(own.get(), ownSpec, live);
        }
        removeInactiveEndpoints(nodePlan, live);
        writeGatewayStatus(GatewayStatus.ACTIVE, ownSpec, statusFailure, connections(nodePlan, live, connectionState, message));
        reportProgrammed(live, Optional.of(Optional.ofNullable(statusFailure)));
    }

    /** Seed 004: tells the Globalnet objects' users, in their status, that this node's rules for them are programmed. */
    private void reportProgrammed(LiveObjects live, Optional<Optional<String>> programmed) {
        for (ProgrammedConditions.Edit edit : ProgrammedConditions.edits(live, settings.nodeName(), settings.multiActiveGateway(), programmed,
                java.time.Instant.now())) {
            try {
                switch (edit.kind()) {
                    case "ClusterGlobalEgressIP" -> client.resources(ClusterGlobalEgressIPResource.class).withName(edit.name())
                            .editStatus(o -> {
                                if (edit.uid().equals(o.getMetadata().getUid()) && o.getStatus() != null) {
                                    o.setStatus(new AllocationStatus(ProgrammedConditions.apply(o.getStatus().conditions(),
                                            settings.nodeName(), edit.condition()), o.getStatus().allocatedIPs(), o.getStatus().gatewaySlices()));
                                }
                                return o;
                            });
                    case "GlobalEgressIP" -> client.resources(GlobalEgressIPResource.class).inNamespace(edit.namespace())
                            .withName(edit.name()).editStatus(o -> {
                                if (edit.uid().equals(o.getMetadata().getUid()) && o.getStatus() != null) {
                                    o.setStatus(new AllocationStatus(ProgrammedConditions.apply(o.getStatus().conditions(),
                                            settings.nodeName(), edit.condition()), o.getStatus().allocatedIPs(), o.getStatus().gatewaySlices()));
                                }
                                return o;
                            });
                    default -> client.resources(GlobalIngressIPResource.class).inNamespace(edit.namespace())
                            .withName(edit.name()).editStatus(o -> {
                                if (edit.uid().equals(o.getMetadata().getUid()) && o.getStatus() != null) {
                                    o.setStatus(new GlobalIngressIPStatus(ProgrammedConditions.apply(
                                            o.getStatus().conditions(), settings.nodeName(), edit.condition()), o.getStatus().allocatedIP(), o.getStatus().gateway()));
                                }
                                return o;
                            });
                }
            } catch (KubernetesClientException e) {
                // A conflict with the controller's own status write, or the object is gone: the next pass looks again.
                LOG.info("gateway {}: the programmed condition of {} {} did not go through ({}); retrying", settings.nodeName(), edit.kind(),
                        edit.name(), e.getCode());
                loop.signal();
            }
        }
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

    private void publishEndpoint(Endpoint endpoint, EndpointSpec spec, LiveObjects live) {
        boolean current = live.endpoints().stream().anyMatch(e -> e.getMetadata().getName().equals(endpoint.name()) && spec.equals(e.getSpec()));
        if (current) {
            return;
        }
        SubmarinerEndpoint object = new SubmarinerEndpoint();
        object.setMetadata(new ObjectMetaBuilder().withName(endpoint.name()).withNamespace(settings.namespace()).build());
        object.setSpec(spec);
        try {
            client.resource(object).createOr(NonDeletingOperation::update);
        } catch (KubernetesClientException e) {
            LOG.info("gateway {}: publishing Endpoint {} did not go through ({}); retrying", settings.nodeName(), endpoint.name(), e.getCode());
            loop.signal();
        }
    }

    /** Endpoints of this cluster whose gateway is no longer active (its node failed, or lost the lease). */
    private void removeInactiveEndpoints(LiveNodePlan nodePlan, LiveObjects live) {
        Set<String> active = nodePlan.plan().endpoints().stream().filter(e -> e.clusterId().equals(settings.clusterId()))
                .map(Endpoint::name).collect(Collectors.toSet());
        for (SubmarinerEndpoint endpoint : live.endpoints()) {
            boolean local = endpoint.getSpec() != null && settings.clusterId().equals(endpoint.getSpec().clusterId());
            boolean synced = endpoint.getMetadata().getLabels() != null && endpoint.getMetadata().getLabels().containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);
            if (local && !synced && !active.contains(endpoint.getMetadata().getName())) {
                delete(endpoint.getMetadata().getName());
            }
        }
    }

    private void deleteOwnEndpoint() {
        String name = EndpointConversion.endpointName(settings.clusterId(), settings.nodeName());
        if (informers.snapshot().endpoints().stream().anyMatch(e -> e.getMetadata().getName().equals(name))) {
            delete(name);
        }
    }

    private void delete(String endpointName) {
        try {
            client.resources(SubmarinerEndpoint.class).inNamespace(settings.namespace()).withName(endpointName).delete();
        } catch (KubernetesClientException e) {
            LOG.info("gateway {}: deleting Endpoint {} did not go through ({})", settings.nodeName(), endpointName, e.getCode());
            loop.signal();
        }
    }

    private void writeGatewayStatus(String haStatus, EndpointSpec localEndpoint, String failure, List<GatewayConnection> connections) {
        GatewayStatus status = new GatewayStatus(VERSION, haStatus, localEndpoint, failure, connections);
        try {
            var resource = client.resources(Gateway.class).inNamespace(settings.namespace()).withName(settings.nodeName());
            Gateway existing = resource.get();
            if (existing == null) {
                Gateway gateway = new Gateway();
                gateway.setMetadata(new ObjectMetaBuilder().withName(settings.nodeName()).withNamespace(settings.namespace()).build());
                client.resource(gateway).create();
            } else if (status.equals(existing.getStatus())) {
                return;
            }
            resource.editStatus(g -> {
                g.setStatus(status);
                return g;
            });
        } catch (KubernetesClientException e) {
            LOG.info("gateway {}: writing the Gateway status did not go through ({}); retrying", settings.nodeName(), e.getCode());
            loop.signal();
        }
    }

    /** Stops programming, releases the lease (a standby takes over within a retry period) and removes the node's Endpoint. */
    @Override
    public void close() {
        loop.close();
        health.close();
        election.close();
        if (informers != null) {
            LiveObjects live = informers.snapshot();
            informers.close();
            // Its rules are no longer looked after: its conditions go with it.
            reportProgrammed(live, Optional.empty());
            String name = EndpointConversion.endpointName(settings.clusterId(), settings.nodeName());
            String mine = live.endpoints().stream().map(e -> e.getMetadata().getName()).filter(name::equals).findFirst().orElse(null);
            if (mine != null) {
                try {
                    client.resources(SubmarinerEndpoint.class).inNamespace(settings.namespace()).withName(mine).delete();
                } catch (KubernetesClientException e) {
                    LOG.info("gateway {}: could not remove Endpoint {} on shutdown ({})", settings.nodeName(), mine, e.getCode());
                }
            }
        }
    }
}
