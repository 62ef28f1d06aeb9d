package io.periscope.features.kubernetes;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.kubernetes.broker.BrokerSync;
import io.periscope.kubernetes.broker.GlobalnetInfo;
import io.periscope.kubernetes.broker.BrokerSyncSettings;
import io.periscope.kubernetes.crd.CableDriverField;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectionPoliciesSpec;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicySpec;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.ConnectionPolicy;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPSpec;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.gateway.GatewayAgent;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.globalnet.GlobalnetSettings;
import io.periscope.dataplane.election.LeaseTimings;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LabelSelectorConversion;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.nodeplan.NodeAgentSettings;
import io.periscope.kubernetes.routeagent.RouteAgent;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Kubernetes control plane for a scenario's cluster set: a broker API server and one API server per
 * cluster (fabric8's mock server in CRUD mode), the topology written into them as the Kubernetes
 * objects a real cluster would hold, and Periscope's real controllers from agents/kubernetes running
 * against them: per cluster two Globalnet replicas (one leads the Lease, as during a rollout), the
 * broker sync, and a gateway agent on every gateway node (leader election on the gateway Lease; one
 * Lease per node with multiple active gateways). The agents' kernels are the {@link NodeKernels} given:
 * recording command runners for the scenarios (what they program is compared with what the backend
 * programmed), or the lab's network namespaces, where a route agent runs on every node too
 * ({@link KubernetesOnTheLab}).
 *
 * <p>Started by the first step that needs an API; the scenarios that never ask stay as fast as before.
 */
public final class KubernetesControlPlane implements AutoCloseable {

    public static final String NAMESPACE = "submariner-operator";
    public static final String BROKER_NAMESPACE = "submariner-k8s-broker";
    /** Upstream's name of the one ClusterConnectionPolicies object (seed 001). */
    public static final String CONNECTION_POLICIES_NAME = "cluster-connection-policies";
    static final int GLOBALNET_REPLICAS = 2;

    /** Short enough that leadership settles well within a scenario. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(100));
    private static final Duration RESYNC = Duration.ofSeconds(2);

    /** One cluster's API server, its controllers and its node agents' kernels (gateway nodes', and every node's with route agents). */
    public record MemberCluster(Cluster model, MockApiServer api, List<GlobalnetController> globalnet, BrokerSync sync,
                                Map<String, GatewayAgent> gateways, Map<String, RouteAgent> routeAgents, Map<String, CommandRunner> kernels) {
        public KubernetesClient client() {
            return api.client();
        }

        /** What the agents of {@code node} ran, on a control plane of {@link RecordedKernels}. */
        public RecordingCommandRunner recorded(String node) {
            if (kernels.get(node) instanceof RecordingCommandRunner recorded) {
                return recorded;
            }
            throw new IllegalStateException("node " + model.name() + "/" + node + " has no recorded kernel: " + kernels.get(node));
        }
    }

    private final ClusterSet set;
    /** The in-JVM agents' kernels, or none when the agents run as processes. */
    private final NodeKernels nodeKernels;
    /** The agents as processes in the lab's namespaces, or null when they run in this JVM. */
    private final LabNodeProcesses processes;
    private final MockApiServer broker;
    private final Map<String, MemberCluster> clusters = new LinkedHashMap<>();
    private final List<AutoCloseable> running = new ArrayList<>();
    /** Each cluster's Globalnet replicas as processes, by the identity they stand for the Lease with. */
    private final Map<String, Map<String, AgentProcesses.AgentProcess>> globalnetProcesses = new LinkedHashMap<>();
    /** What starts once every cluster's first agents are under way: the stand-by gateways, after the active one took the Lease, then the Globalnet replicas. */
    private final List<Runnable> standbys = new ArrayList<>();

    private KubernetesControlPlane(ClusterSet set, NodeKernels nodeKernels, LabNodeProcesses processes, MockApiServer broker) {
        this.set = set;
        this.nodeKernels = nodeKernels;
        this.processes = processes;
        this.broker = broker;
    }

    /**
     * The scenarios' control plane: gateway agents on {@link RecordedKernels}.
     *
     */
    public static KubernetesControlPlane start(ClusterSet set) {
        return start(set, new RecordedKernels());
    }

    /**
     * @param kernels where the node agents program; closed with the control plane, after the agents
     */
    public static KubernetesControlPlane start(ClusterSet set, NodeKernels kernels) {
        return start(set, kernels, null);
    }

    /**
     * The control plane of the kubernetes-on-lab backend: the API servers in this JVM, every agent a
     * process in the namespace of the node it runs on ({@link LabNodeProcesses}).
     *
     * @param processes where the agents start; closed with the control plane
     */
    public static KubernetesControlPlane startProcesses(ClusterSet set, LabNodeProcesses processes) {
        return start(set, new NodeKernels() {
            @Override
            public CommandRunner runner(String cluster, String node) {
                throw new IllegalStateException("the agents of " + cluster + "/" + node + " run as processes with their own runner");
            }

            @Override
            public boolean routeAgents() {
                return true;
            }
        }, processes);
    }

    private static KubernetesControlPlane start(ClusterSet set, NodeKernels kernels, LabNodeProcesses processes) {
        MockApiServer broker = null;
        KubernetesControlPlane plane = null;
        try {
            List<CustomResourceDefinition> crds = MockApiServer.shippedCrds();
            broker = new MockApiServer(crds, BROKER_NAMESPACE);
            plane = new KubernetesControlPlane(set, kernels, processes, broker);
            plane.writePolicies();
            plane.writeGlobalnetInfo();
            Map<String, MockApiServer> apis = new LinkedHashMap<>();
            Map<String, BrokerSync> syncs = new LinkedHashMap<>();
            for (Cluster cluster : joinOrder(set)) {
                MockApiServer api = new MockApiServer(crds, NAMESPACE);
                plane.running.add(api);
                write(api, set, cluster);
                apis.put(cluster.name(), api);
                syncs.put(cluster.name(), plane.joinBroker(cluster, api));
            }
            for (Cluster cluster : set.clusters()) {
                MockApiServer api = apis.get(cluster.name());
                plane.clusters.put(cluster.name(), processes != null ? plane.startProcesses(cluster, api)
                        : plane.startControllers(cluster, api, syncs.get(cluster.name())));
            }
            plane.standbys.forEach(Runnable::run);
            plane.standbys.clear();
            return plane;
        } catch (RuntimeException e) {
            if (plane != null) {
                plane.close();
            } else {
                if (broker != null) {
                    broker.close();
                }
                kernels.close();
                if (processes != null) {
                    processes.close();
                }
            }
            throw e;
        }
    }

    public ClusterSet clusterSet() {
        return set;
    }

    public KubernetesClient broker() {
        return broker.client();
    }

    /** The broker's API server, for controllers started beside the plane's (each takes a client of its own). */
    MockApiServer brokerApi() {
        return broker;
    }

    /** How often the plane's controllers resync, for those started beside them. */
    static Duration resync() {
        return RESYNC;
    }

    public MemberCluster cluster(String name) {
        MemberCluster cluster = clusters.get(name);
        if (cluster == null) {
            throw new IllegalArgumentException("the cluster set has no cluster " + name + "; its clusters: " + clusters.keySet());
        }
        return cluster;
    }

    public List<MemberCluster> clusters() {
        return List.copyOf(clusters.values());
    }

    /** The policies live on the broker (seed 001); the broker sync brings them to every cluster. */
    private void writePolicies() {
        for (var policy : set.connectivityPolicies()) {
            ClusterConnectivityPolicyResource object = new ClusterConnectivityPolicyResource();
            object.setMetadata(new ObjectMetaBuilder().withName(policy.name()).withNamespace(BROKER_NAMESPACE).build());
            object.setSpec(new ClusterConnectivityPolicySpec(LabelSelectorConversion.toKubernetes(policy.leftClusterSelector()),
                    LabelSelectorConversion.toKubernetes(policy.rightClusterSelector())));
            broker.client().resource(object).create();
        }
        if (!set.connectionPolicies().isEmpty()) {
            ClusterConnectionPolicies object = new ClusterConnectionPolicies();
            object.setMetadata(new ObjectMetaBuilder().withName(CONNECTION_POLICIES_NAME).withNamespace(BROKER_NAMESPACE).build());
            object.setSpec(new ClusterConnectionPoliciesSpec(set.connectionPolicies().stream().map(p -> new ConnectionPolicy(
                    LabelSelectorConversion.toKubernetes(p.leftClusterSelector()), LabelSelectorConversion.toKubernetes(p.rightClusterSelector()),
                    new CableDriverField(p.cableDriver().name().yamlName(), p.cableDriver().options()))).toList()));
            broker.client().resource(object).create();
        }
    }

    /** The cluster as the objects a real cluster holds: its Cluster object, nodes, pods, services, exports and GlobalEgressIPs. */
    private static void write(MockApiServer api, ClusterSet set, Cluster cluster) {
        // Only a GlobalCIDR the topology file declares (preconfigured); the broker sync asks the broker for the others.
        Optional<Ipv4Prefix> globalCidr = set.globalnet().enabled() ? cluster.globalCidr() : Optional.empty();
        KubernetesClient client = api.client();
        SubmarinerCluster object = new SubmarinerCluster();
        object.setMetadata(new ObjectMetaBuilder().withName(cluster.name()).withNamespace(NAMESPACE).withLabels(cluster.labels()).build());
        object.setSpec(new ClusterSpec(cluster.name(), List.of(), text(cluster.podCidrs()), text(cluster.serviceCidrs()),
                globalCidr.map(c -> List.of(c.toString())).orElse(List.of()), cluster.cni().yamlName(), cluster.multiActiveGateways(),
                cluster.clusterEgressIPs(), cluster.loadBalancing().yamlName(), set.defaultCableDriver().yamlName(),
                set.globalnet().enabled() ? set.globalnet().mode().yamlName() : null, cluster.egressOwnership().yamlName(),
                set.behaviour().yamlName()));
        client.resource(object).create();
        for (Node node : cluster.nodes()) {
            Map<String, String> annotations = new HashMap<>();
            annotations.put(ClusterModelBuilder.CNI_IP_ANNOTATION, node.cniIp().toString());
            node.publicIp().ifPresent(ip -> annotations.put(ClusterModelBuilder.PUBLIC_IP_ANNOTATION, ip.toString()));
            client.resource(new NodeBuilder().withNewMetadata().withName(node.name()).withAnnotations(annotations)
                    .withLabels(node.gateway() ? Map.of(SubmarinerApi.GATEWAY_LABEL, "true") : Map.of()).endMetadata()
                    .withNewStatus().addNewAddress().withType("InternalIP").withAddress(node.ip().toString()).endAddress().endStatus()
                    .build()).create();
        }
        for (Pod pod : cluster.pods()) {
            api.namespace(pod.namespace());
            var built = new PodBuilder().withNewMetadata().withName(pod.name()).withNamespace(pod.namespace()).withLabels(pod.labels()).endMetadata()
                    .withNewSpec().withNodeName(pod.node()).withHostNetwork(pod.hostNetwork() ? true : null)
                    .addNewContainer().withName("app").withImage("app").endContainer().endSpec()
                    .withNewStatus().withPhase("Running").withPodIP(pod.ip().toString()).endStatus().build();
            var created = client.resource(built).create();
            // Status is a subresource: written the way the kubelet does.
            created.setStatus(built.getStatus());
            client.resource(created).updateStatus();
        }
        for (Service service : cluster.services()) {
            api.namespace(service.namespace());
            client.resource(new ServiceBuilder().withNewMetadata().withName(service.name()).withNamespace(service.namespace()).endMetadata()
                    .withNewSpec().withClusterIP(service.clusterIp().map(Object::toString).orElse("None"))
                    .withSelector(service.selector().matchLabels())
                    .withPorts(service.ports().stream().map(p -> new ServicePortBuilder().withName(p.name().orElse(null)).withPort(p.port())
                            .withTargetPort(new IntOrString(p.targetPort())).withProtocol(p.protocol().name()).build()).toList())
                    .endSpec().build()).create();
        }
        for (var export : cluster.exports()) {
            api.namespace(export.namespace());
            ServiceExportResource object2 = new ServiceExportResource();
            object2.setMetadata(new ObjectMetaBuilder().withName(export.name()).withNamespace(export.namespace()).build());
            client.resource(object2).create();
        }
        for (var egress : cluster.globalEgressIPs()) {
            api.namespace(egress.namespace());
            GlobalEgressIPResource object2 = new GlobalEgressIPResource();
            object2.setMetadata(new ObjectMetaBuilder().withName(egress.name()).withNamespace(egress.namespace()).build());
            object2.setSpec(new GlobalEgressIPSpec(egress.numberOfIPs(), egress.podSelector().map(LabelSelectorConversion::toKubernetes).orElse(null)));
            client.resource(object2).create();
        }
    }

    private MemberCluster startControllers(Cluster cluster, MockApiServer api, BrokerSync sync) {
        Map<String, GatewayAgent> gateways = new LinkedHashMap<>();
        Map<String, CommandRunner> kernels = new LinkedHashMap<>();
        List<Node> labelled = cluster.nodes().stream().filter(Node::gateway).toList();
        for (Node node : labelled) {
            CommandRunner kernel = nodeKernels.runner(cluster.name(), node.name());
            GatewayAgent agent = new GatewayAgent(api.newClient(), new NodeAgentSettings(cluster.name(), NAMESPACE, node.name(),
                    cluster.multiActiveGateways(), TIMINGS, RESYNC), kernel, nodeKernels.watch(cluster.name(), node.name()),
                    nodeKernels.probers(cluster.name(), node.name())).start();
            running.add(agent);
            gateways.put(node.name(), agent);
            kernels.put(node.name(), kernel);
            if (!cluster.multiActiveGateways() && node == labelled.getFirst()) {
                // The model's first gateway is the active one; its agent takes the cluster's Lease before the others stand for it.
                Eventually.await("the gateway agent of " + cluster.name() + "/" + node.name() + " takes the gateway Lease", agent::leading);
            }
        }
        Map<String, RouteAgent> routeAgents = new LinkedHashMap<>();
        if (nodeKernels.routeAgents()) {
            // Every node, gateways included: a gateway's route agent programs it while it waits on the Lease.
            for (Node node : cluster.nodes()) {
                CommandRunner kernel = nodeKernels.runner(cluster.name(), node.name());
                RouteAgent agent = new RouteAgent(api.newClient(), new NodeAgentSettings(cluster.name(), NAMESPACE, node.name(), false,
                        TIMINGS, RESYNC), kernel, nodeKernels.watch(cluster.name(), node.name()),
                    nodeKernels.probers(cluster.name(), node.name())).start();
                running.add(agent);
                routeAgents.put(node.name(), agent);
                kernels.put(node.name(), kernel);
            }
        }
        // Last, as the processes' variant starts them (see startProcesses): once every active gateway is in place.
        List<GlobalnetController> globalnet = List.of();
        if (set.globalnet().enabled()) {
            awaitActiveGateways(cluster, api);
            globalnet = startGlobalnet(cluster.name(), api, "globalnet-");
        }
        return new MemberCluster(cluster, api, new java.util.concurrent.CopyOnWriteArrayList<>(globalnet), sync, gateways, routeAgents, kernels);
    }

    /**
     * The cluster's agents as processes, as its manifests place them: a route agent on every node
     * and a gateway agent on every gateway node (DaemonSets), the Globalnet replicas, the broker sync
     * and the DNS server on nodes of the cluster (Deployments). With one active gateway the model's
     * first gateway starts first and takes the Lease (as read from the API); the others start once
     * every cluster's first agents are under way. The Globalnet replicas start last, once every
     * active gateway holds its Lease and has its Gateway object, as upstream's Globalnet allocates
     * only once its gateway is active.
     */
    private MemberCluster startProcesses(Cluster cluster, MockApiServer api) {
        List<Node> nodes = cluster.nodes();
        List<Node> labelled = nodes.stream().filter(Node::gateway).toList();
        List<String> flags = cluster.multiActiveGateways() ? List.of("--multi-active-gateway") : List.of();
        for (int i = 0; i < labelled.size(); i++) {
            Node node = labelled.get(i);
            Runnable start = () -> processes.start(cluster.name(), node.name(), "gateway", List.of(api), flags, null);
            if (i == 0) {
                start.run();
                continue;
            }
            // In the model's order, as the in-JVM agents start: Globalnet hands out by the Gateway objects' age, and
            // with one active gateway the first takes the Lease. The next starts once the API shows the previous one.
            Node previous = labelled.get(i - 1);
            standbys.add(() -> {
                if (cluster.multiActiveGateways()) {
                    awaitStarted("the gateway agent of " + cluster.name() + "/" + previous.name() + " publishes its Gateway object",
                            () -> api.client().resources(io.periscope.kubernetes.crd.Gateway.class).inNamespace(NAMESPACE)
                                    .withName(previous.name()).get() != null);
                } else {
                    String lease = LiveObjectsReader.gatewayLease(false, labelled.getFirst().name());
                    awaitStarted("the gateway agent of " + cluster.name() + "/" + labelled.getFirst().name() + " holds the Lease " + lease,
                            () -> labelled.getFirst().name().equals(leaseHolder(api.client(), lease)));
                }
                start.run();
            });
        }
        for (Node node : nodes) {
            processes.start(cluster.name(), node.name(), "route-agent", List.of(api), List.of(), null);
        }
        if (set.globalnet().enabled()) {
            // After the gateways, once every active one holds its Lease and has its Gateway object: upstream's
            // Globalnet starts its controllers only when its gateway is active (TransitionToGateway, then
            // OnStartedLeading: startControllers, pkg/globalnet/controllers/gateway_monitor.go), so its first
            // allocations see the gateways in place, as periscope plan hands them out. Started beside them, a
            // replica allocated for whichever gateways held a Lease at its first pass: cluster1/gw-1 alone on
            // mag-globalnet-egress, its db-pods slice at .9-.10 where gw-2's ClusterGlobalEgressIP belongs.
            standbys.add(() -> {
                awaitActiveGateways(cluster, api);
                startGlobalnetProcesses(cluster.name(), api, "globalnet-");
            });
        }
        return new MemberCluster(cluster, api, new java.util.concurrent.CopyOnWriteArrayList<>(), null, Map.of(), Map.of(), Map.of());
    }

    /**
     * The order in which the clusters join the broker: those whose file declares a GlobalCIDR first,
     * then the others in file order. {@code periscope plan} hands out the same way (declared blocks
     * are set aside before any hand-out, the rest in file order), and a cluster joining the broker
     * takes the lowest free block of what the broker holds then: joined in another order, the
     * clusters hold other blocks than the plan's, as they would on a real broker.
     */
    private static List<Cluster> joinOrder(ClusterSet set) {
        List<Cluster> order = new ArrayList<>(set.clusters().stream().filter(c -> c.globalCidr().isPresent()).toList());
        set.clusters().stream().filter(c -> c.globalCidr().isEmpty()).forEach(order::add);
        return order;
    }

    /**
     * The broker's Globalnet settings, as {@code subctl deploy-broker --globalnet} writes them: the
     * ConfigMap {@value GlobalnetInfo#CONFIG_MAP_NAME} whose record the broker syncs hand the
     * clusters' GlobalCIDRs out of. Without Globalnet there is none, and the syncs settle nothing.
     */
    private void writeGlobalnetInfo() {
        if (!set.globalnet().enabled()) {
            return;
        }
        broker.client().resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata()
                .withName(GlobalnetInfo.CONFIG_MAP_NAME).withNamespace(BROKER_NAMESPACE).endMetadata()
                .withData(GlobalnetInfo.brokerData(set.globalnet().cidr(), set.globalnet().clusterSize())).build()).create();
    }

    /**
     * The cluster joins the broker: its broker sync starts (in this JVM, or as the cluster's
     * {@code broker-sync} process), and with Globalnet the next cluster joins only once this one's
     * GlobalCIDR is settled: the broker's record holds it and the sync has written it into the
     * cluster's Cluster object, where the agents read it. Upstream settles it in {@code subctl join},
     * before any agent is deployed; here too the agents start after every cluster has joined.
     *
     * @return the sync when it runs in this JVM, null for a process
     */
    private BrokerSync joinBroker(Cluster cluster, MockApiServer api) {
        BrokerSync sync = null;
        if (processes != null) {
            processes.start(cluster.name(), cluster.nodes().getFirst().name(), "broker-sync", List.of(api, broker),
                    List.of("--broker-kubeconfig", "{kubeconfig:" + broker.address().getPort() + "}", "--broker-namespace", BROKER_NAMESPACE),
                    "broker-sync-0");
        } else {
            sync = new BrokerSync(api.newClient(), broker.newClient(), new BrokerSyncSettings(cluster.name(), NAMESPACE, BROKER_NAMESPACE,
                    RESYNC)).start();
            running.add(sync);
        }
        if (set.globalnet().enabled()) {
            awaitStarted("the broker sync of " + cluster.name() + " settles its GlobalCIDR with the broker (" + GlobalnetInfo.CONFIG_MAP_NAME
                    + " records it and the Cluster object names it)", () -> globalCidrSettled(cluster.name(), api));
        }
        return sync;
    }

    private boolean globalCidrSettled(String cluster, MockApiServer api) {
        var record = broker.client().configMaps().inNamespace(BROKER_NAMESPACE).withName(GlobalnetInfo.CONFIG_MAP_NAME).get();
        SubmarinerCluster own = api.client().resources(SubmarinerCluster.class).inNamespace(NAMESPACE).withName(cluster).get();
        return record != null && GlobalnetInfo.read(record).clusters().containsKey(cluster)
                && own != null && own.getSpec() != null && !own.getSpec().globalCidr().isEmpty();
    }

    /** Until every active gateway of the model holds its Lease and has published its Gateway object. */
    private static void awaitActiveGateways(Cluster cluster, MockApiServer api) {
        for (Node gateway : cluster.activeGateways()) {
            String lease = LiveObjectsReader.gatewayLease(cluster.multiActiveGateways(), gateway.name());
            awaitStarted("the gateway agent of " + cluster.name() + "/" + gateway.name() + " holds the Lease " + lease
                    + " and publishes its Gateway object", () -> gateway.name().equals(leaseHolder(api.client(), lease))
                    && api.client().resources(io.periscope.kubernetes.crd.Gateway.class).inNamespace(NAMESPACE)
                            .withName(gateway.name()).get() != null);
        }
    }

    private void startGlobalnetProcesses(String cluster, MockApiServer api, String prefix) {
        List<Node> nodes = this.set.clusters().stream().filter(c -> c.name().equals(cluster)).findFirst().orElseThrow().nodes();
        Map<String, AgentProcesses.AgentProcess> replicas = new LinkedHashMap<>();
        for (int replica = 0; replica < GLOBALNET_REPLICAS; replica++) {
            String identity = prefix + replica;
            replicas.put(identity, processes.start(cluster, nodes.get(replica % nodes.size()).name(), "globalnet", List.of(api), List.of(), identity));
        }
        globalnetProcesses.put(cluster, replicas);
    }

    /** An agent process's JVM and first pass: as long as the lab's convergence may take on a busy machine. */
    private static void awaitStarted(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + KubernetesLab.CONVERGENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + KubernetesLab.CONVERGENCE.toSeconds() + " s, not yet: " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting: " + what, e);
            }
        }
    }

    /** Who holds the Lease {@code name} in the cluster's namespace, as the API says; null when nobody does. */
    public static String leaseHolder(KubernetesClient client, String name) {
        io.fabric8.kubernetes.api.model.coordination.v1.Lease lease = client.resources(io.fabric8.kubernetes.api.model.coordination.v1.Lease.class)
                .inNamespace(NAMESPACE).withName(name).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }

    /**
     * The identities the cluster's Globalnet replicas stand for the Lease with, for a control plane
     * whose agents run as processes; empty for one whose controllers run in this JVM ({@link MemberCluster#globalnet()}).
     */
    public List<String> globalnetProcessIdentities(String cluster) {
        return List.copyOf(globalnetProcesses.getOrDefault(cluster, Map.of()).keySet());
    }

    /** The agents as processes, or empty when they run in this JVM. */
    public java.util.Optional<LabNodeProcesses> processes() {
        return java.util.Optional.ofNullable(processes);
    }

    private List<GlobalnetController> startGlobalnet(String cluster, MockApiServer api, String prefix) {
        List<GlobalnetController> replicas = new ArrayList<>();
        for (int replica = 0; replica < GLOBALNET_REPLICAS; replica++) {
            GlobalnetController controller = new GlobalnetController(api.newClient(), new GlobalnetSettings(cluster, NAMESPACE,
                    prefix + replica, TIMINGS, RESYNC), Clock.systemUTC()).start();
            running.add(controller);
            replicas.add(controller);
        }
        return replicas;
    }

    /**
     * Stops every Globalnet replica of the cluster (they release the Lease) and starts new ones, as a
     * rollout or a node failure does; returns once a new replica leads and has made its first pass.
     */
    public void restartGlobalnet(String cluster) {
        MemberCluster member = cluster(cluster);
        if (processes != null) {
            // The pods are deleted (SIGTERM: the leader releases the Lease) and new ones scheduled.
            globalnetProcesses.getOrDefault(cluster, Map.of()).values().forEach(processes::stop);
            startGlobalnetProcesses(cluster, member.api(), "globalnet-restarted-" + System.nanoTime() + "-");
            List<String> fresh = globalnetProcessIdentities(cluster);
            Eventually.await("a restarted Globalnet replica of " + cluster + " holds the Lease " + GlobalnetSettings.LEASE,
                    () -> fresh.contains(leaseHolder(member.client(), GlobalnetSettings.LEASE)));
            return;
        }
        List<GlobalnetController> old = List.copyOf(member.globalnet());
        old.forEach(GlobalnetController::close);
        running.removeAll(old);
        List<GlobalnetController> fresh = startGlobalnet(cluster, member.api(), "globalnet-restarted-" + System.nanoTime() + "-");
        member.globalnet().clear();
        member.globalnet().addAll(fresh);
        Eventually.await("a restarted Globalnet replica of " + cluster + " leads and has made a pass",
                () -> fresh.stream().anyMatch(c -> c.leading() && c.passes() > 0));
    }

    private static <T> List<String> text(List<T> values) {
        return values.stream().map(Object::toString).toList();
    }

    /** Controllers first (they release their Leases and remove their Endpoints), then the API servers, then the kernels' threads. */
    @Override
    public void close() {
        if (processes != null) {
            // The agents first, while their API servers still answer: leaders release their Leases.
            processes.close();
        }
        List<AutoCloseable> reversed = new ArrayList<>(running);
        java.util.Collections.reverse(reversed);
        for (AutoCloseable closeable : reversed) {
            try {
                closeable.close();
            } catch (Exception e) {
                // Shutting down after the scenario: nothing left to check.
            }
        }
        broker.close();
        nodeKernels.close();
    }
}
