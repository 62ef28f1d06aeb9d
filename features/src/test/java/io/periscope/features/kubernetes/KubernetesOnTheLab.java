package io.periscope.features.kubernetes;

import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.features.kubernetes.KubernetesControlPlane.MemberCluster;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.periscope.kubernetes.dns.ReadyPods;
import io.periscope.lab.agent.LayerAgent;
import io.periscope.lab.agent.LayerAgents;
import io.periscope.lab.agent.NamespaceCommandRunner;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.dns.ClusterDns;
import io.periscope.lab.down.LabTeardown;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.up.LabUp;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.planner.AllocatedGlobalAddresses;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes on the lab: the lab's network namespaces for a cluster set's nodes and pods, with only
 * what Kubernetes and the CNI would have set up before Submariner (the underlay, the CNI's addresses
 * and routes and masquerade, kube-proxy's chains); then a {@link KubernetesControlPlane} whose
 * production agents (a gateway agent on every gateway node, a route agent on every node, Globalnet
 * replicas, the broker sync) run as processes, each in the namespace of the node it runs on
 * ({@link LabNodeProcesses}), against fabric8's mock API servers in this JVM, which they reach
 * through their namespace's loopback ({@link ApiRelay}). Nothing of Periscope's own lab agents
 * programs the Submariner layer: whatever of it a node holds, the production agents put there. Each
 * cluster's DNS server is the production {@code periscope-agent dns}, fed by the broker sync's
 * service exports, listening in the node namespace where the lab's DNS Service sends the pods'
 * queries ({@link ClusterDns}), in place of the server the lab's supervisor would run there.
 *
 * <p>Close it to stop the agents and remove every namespace, whatever state the test left.
 */
public final class KubernetesOnTheLab implements AutoCloseable {

    /** The cluster set the API servers hold: the one built, or a change of it taken in place ({@link #apply}). */
    private volatile ClusterSet set;
    private volatile ClusterSetPlan plan;
    /** Whether {@link #set} is a change the running agents took ({@link #apply}), not the set they started with. */
    private volatile boolean changedInPlace;
    private final Path file;
    private final LabStateFile stateFile;
    private final LabLayout layout;
    private final ProcessCommandRunner runner = ProcessCommandRunner.here();
    private final List<String> progress = new ArrayList<>();
    private KubernetesControlPlane plane;
    /** Each cluster's DNS server, by cluster. */
    private final Map<String, ClusterDns> dnsServers = new LinkedHashMap<>();

    private KubernetesOnTheLab(ClusterSet set, Path stateDirectory) {
        this.set = set;
        this.plan = Planner.plan(set);
        this.file = Path.of(set.name() + ".yaml");
        this.stateFile = new LabStateFile(stateDirectory);
        this.layout = LabLayout.of(Planner.plan(set));
    }

    /**
     * Builds the namespaces, as a cluster holds its nodes before Submariner is installed; no agent runs
     * yet ({@link #startAgents}).
     *
     * @throws IllegalArgumentException for a cluster set with a Libreswan cable between two clusters:
     *                                  the lab would build it as VXLAN (no XFRM here) while the agents
     *                                  program what the Cluster objects and policies name, so the two
     *                                  would not be the same cluster set. A Libreswan default that the
     *                                  connection policies leave to no pair builds nothing, and is taken.
     */
    public static KubernetesOnTheLab up(ClusterSet set, Path stateDirectory) {
        List<String> libreswan = ClusterGraph.of(set).connections().stream().filter(c -> c.cableDriver().name() == CableDriver.LIBRESWAN)
                .map(c -> c.left() + " and " + c.right()).toList();
        if (!libreswan.isEmpty()) {
            throw new IllegalArgumentException("the lab would build " + set.name() + "'s Libreswan cables (" + String.join(", ", libreswan)
                    + ") as VXLAN, unlike what its agents program: " + LabCables.of(set).substitutions());
        }
        KubernetesOnTheLab lab = new KubernetesOnTheLab(set, stateDirectory);
        try {
            new LabUp(lab.runner, lab.stateFile, new EnvironmentAgents()).run(lab.file, set, lab.progress::add);
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /**
     * Writes the cluster set into the API servers and starts the production agents as processes in
     * the nodes' namespaces ({@link LabNodeProcesses}); returns with them started, before they
     * converge (see {@link #differences}). Each cluster's DNS server is the production
     * {@code periscope-agent dns}, listening where the lab's DNS Service sends the pods' queries.
     */
    public KubernetesControlPlane startAgents() {
        if (plane != null) {
            throw new IllegalStateException("the agents of " + set.name() + " already run");
        }
        LabNodeProcesses processes = new LabNodeProcesses(layout, agentDirectory(), KubernetesControlPlane.resync());
        plane = KubernetesControlPlane.startProcesses(set, processes);
        for (Cluster cluster : set.clusters()) {
            writeEndpointSlices(plane.cluster(cluster.name()).client(), cluster);
        }
        for (ClusterDns cluster : ClusterDns.of(set, layout)) {
            MemberCluster member = plane.cluster(cluster.cluster());
            processes.start(cluster.cluster(), cluster.server().host().name(), "dns", List.of(member.api()),
                    List.of("--address", cluster.serverAddress().toString(), "--port", Integer.toString(ClusterDns.SERVER_PORT), "--threads", "1"),
                    "dns-0");
            dnsServers.put(cluster.cluster(), cluster);
        }
        return plane;
    }

    /** Where the agents' logs and kubeconfigs go: the features module's target directory, one directory per cluster set. */
    private Path agentDirectory() {
        Path directory = Path.of("target", "kubernetes-on-lab", set.name());
        try (var old = java.nio.file.Files.exists(directory) ? java.nio.file.Files.list(directory) : java.util.stream.Stream.<Path>empty()) {
            for (Path file : old.toList()) {
                java.nio.file.Files.delete(file);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot clear " + directory.toAbsolutePath(), e);
        }
        return directory;
    }

    /** How long each agent's JVM took from its process's start to {@code main}, by agent, once all have got there (or ended). */
    public Map<String, Long> agentStartMillis() {
        Map<String, Long> times = new LinkedHashMap<>();
        for (var agent : controlPlane().processes().orElseThrow().running()) {
            times.put(agent.name(), agent.mainAfterMillis().join());
        }
        return times;
    }

    /**
     * What Kubernetes' endpoint controller writes for every Service with a selector: one slice of the
     * pods it selects, ready (the lab's pods are up). The export sync and the DNS server read a
     * service's readiness from them, as Lighthouse does; the mock API server has no controller of its own.
     */
    private static void writeEndpointSlices(io.fabric8.kubernetes.client.KubernetesClient client, Cluster cluster) {
        for (Service service : cluster.services()) {
            if (service.selector().isEmpty()) {
                continue;
            }
            List<io.fabric8.kubernetes.api.model.discovery.v1.Endpoint> endpoints = cluster.pods().stream()
                    .filter(p -> p.namespace().equals(service.namespace()) && service.selector().matches(p.labels()))
                    .map(p -> new EndpointBuilder().withAddresses(p.ip().toString()).withNewConditions().withReady(true).endConditions()
                            .withNodeName(p.node()).withNewTargetRef().withKind("Pod").withName(p.name()).withNamespace(p.namespace()).endTargetRef()
                            .build())
                    .toList();
            client.resource(new EndpointSliceBuilder().withNewMetadata().withName(service.name() + "-lab").withNamespace(service.namespace())
                    .withLabels(Map.of(ReadyPods.SERVICE_NAME_LABEL, service.name())).endMetadata()
                    .withAddressType("IPv4").withEndpoints(endpoints)
                    .withPorts(service.ports().stream().map(p -> new EndpointPortBuilder().withName(p.name().orElse("")).withPort(p.targetPort())
                            .withProtocol(p.protocol().name()).build()).toList())
                    .build()).create();
        }
    }

    public ClusterSet set() {
        return set;
    }

    /** What {@code periscope plan} says for the cluster set: the plan each node's kernel is compared with. */
    public ClusterSetPlan plan() {
        return plan;
    }

    /**
     * What the agents must program now: {@code periscope plan} of the cluster set, with the global IPs
     * the API holds once a change was taken in place. A running Globalnet keeps every address it gave
     * (upstream restores them from the objects' status and annotations), where the plan of the changed
     * file would hand them out afresh, so after a deletion the first design's pods and nodes keep
     * theirs rather than move up into the freed one.
     */
    public ClusterSetPlan expectedPlan() {
        if (!changedInPlace || !set.globalnet().enabled()) {
            return plan;
        }
        return Planner.plan(set, new AllocatedGlobalAddresses(apiAllocations()));
    }

    /** Every cluster's global IPs as its API server holds them ({@link ApiAllocations}), the plan naming the objects to read. */
    public GlobalnetAllocations apiAllocations() {
        Map<String, io.periscope.model.globalnet.ClusterGlobalnetAllocations> clusters = new LinkedHashMap<>();
        for (var entry : plan.allocations().clusters().entrySet()) {
            clusters.put(entry.getKey(), ApiAllocations.read(controlPlane().cluster(entry.getKey()).client(), KubernetesControlPlane.NAMESPACE,
                    entry.getValue()));
        }
        return new GlobalnetAllocations(clusters);
    }

    /**
     * Takes a change of the running cluster set in place, as a user would make it with kubectl: each
     * deleted ServiceExport, pod and GlobalEgressIP is deleted from its cluster's API server (a pod's
     * EndpointSlices rewritten as the endpoint controller would), and the running agents reconcile.
     * Returns once the API servers hold the change, before the agents have acted on it (the kernels
     * then converge to the changed set's plan: {@link #differences}).
     *
     * @return why the change cannot be taken in place (anything but those deletions: a node, a pod or
     *         an object added, another topology); empty when it was
     */
    public synchronized Optional<String> apply(ClusterSet changed) {
        Optional<String> refused = deletionsOnly(set, changed);
        if (refused.isPresent()) {
            return refused;
        }
        ClusterSet before = set;
        for (Cluster was : before.clusters()) {
            Cluster now = changed.cluster(was.name()).orElseThrow();
            MemberCluster member = plane.cluster(was.name());
            var client = member.client();
            for (var export : was.exports()) {
                if (!now.exports().contains(export)) {
                    client.resources(io.periscope.kubernetes.crd.ServiceExportResource.class).inNamespace(export.namespace())
                            .withName(export.name()).delete();
                }
            }
            for (var egress : was.globalEgressIPs()) {
                if (!now.globalEgressIPs().contains(egress)) {
                    client.resources(io.periscope.kubernetes.crd.GlobalEgressIPResource.class).inNamespace(egress.namespace())
                            .withName(egress.name()).delete();
                }
            }
            boolean podsGone = false;
            for (var pod : was.pods()) {
                if (!now.pods().contains(pod)) {
                    client.pods().inNamespace(pod.namespace()).withName(pod.name()).delete();
                    podsGone = true;
                }
            }
            if (podsGone) {
                for (Service service : was.services()) {
                    client.resources(io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice.class).inNamespace(service.namespace())
                            .withName(service.name() + "-lab").delete();
                }
                Eventually.await("cluster " + was.name() + "'s API server drops the old EndpointSlices", () -> was.services().stream()
                        .allMatch(service -> client.resources(io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice.class)
                                .inNamespace(service.namespace()).withName(service.name() + "-lab").get() == null));
                writeEndpointSlices(client, now);
            }
        }
        set = changed;
        plan = Planner.plan(changed);
        changedInPlace = true;
        return Optional.empty();
    }

    /** Empty when {@code changed} is {@code running} with only exports, pods and GlobalEgressIPs deleted; else what else changed. */
    static Optional<String> deletionsOnly(ClusterSet running, ClusterSet changed) {
        if (!running.name().equals(changed.name()) || running.clusters().size() != changed.clusters().size()) {
            return Optional.of("another cluster set, or clusters added or removed");
        }
        List<Cluster> kept = new ArrayList<>();
        for (Cluster was : running.clusters()) {
            Optional<Cluster> now = changed.cluster(was.name());
            if (now.isEmpty()) {
                return Optional.of("cluster " + was.name() + " removed");
            }
            Cluster c = now.get();
            if (!was.exports().containsAll(c.exports()) || !was.pods().containsAll(c.pods()) || !was.globalEgressIPs().containsAll(c.globalEgressIPs())) {
                return Optional.of("cluster " + was.name() + " gained an export, a pod or a GlobalEgressIP (the lab has no namespace for a new pod,"
                        + " and only deletions are taken in place)");
            }
            kept.add(new Cluster(was.name(), was.labels(), was.podCidrs(), was.serviceCidrs(), was.globalCidr(), was.cni(), was.multiActiveGateways(),
                    was.clusterEgressIPs(), was.loadBalancing(), was.nodes(), c.pods(), was.services(), c.exports(), c.globalEgressIPs(),
                    was.environment(), was.egressOwnership()));
        }
        if (!running.withClusters(kept).equals(changed)) {
            return Optional.of("more than exports, pods or GlobalEgressIPs deleted (nodes, services, policies, Globalnet or the clusters' settings)");
        }
        return Optional.empty();
    }

    public LabLayout layout() {
        return layout;
    }

    /**
     * Waits until every cluster's DNS server answers the name of every exported service (asked with
     * {@code dig} in the server's namespace, as the pods' queries reach it): the exports reach the
     * other clusters as ServiceImports through the broker, a few passes after the agents converged.
     */
    public void awaitExportedNames() {
        for (ClusterDns server : dnsServers.values()) {
            for (Cluster cluster : set.clusters()) {
                for (var export : cluster.exports()) {
                    String name = export.name() + "." + export.namespace() + ".svc." + ServiceDiscovery.ZONE;
                    Eventually.await("the DNS server of " + server.cluster() + " answers " + name, () -> {
                        CommandResult answer = inNamespace(server.server().namespace(), "dig", "-p", Integer.toString(ClusterDns.SERVER_PORT),
                                "@" + server.serverAddress(), name, "A", "+time=1", "+tries=1");
                        return answer.succeeded() && answer.stdout().contains("status: NOERROR");
                    });
                }
            }
        }
    }

    /** Waits until no cluster's DNS server holds the name of an export {@code before} had and the running set has not. */
    public void awaitRemovedNames(ClusterSet before) {
        List<String> gone = new ArrayList<>();
        for (Cluster cluster : before.clusters()) {
            for (var export : cluster.exports()) {
                boolean stillExported = set.clusters().stream().anyMatch(c -> c.exports().contains(export));
                if (!stillExported) {
                    gone.add(export.name() + "." + export.namespace() + ".svc." + ServiceDiscovery.ZONE);
                }
            }
        }
        for (ClusterDns server : dnsServers.values()) {
            for (String name : gone) {
                // Asked as the pods ask it: the server is a process of its own in its node's namespace.
                Eventually.await("the DNS server of " + server.cluster() + " drops " + name, () -> {
                    CommandResult answer = inNamespace(server.server().namespace(), "dig", "-p", Integer.toString(ClusterDns.SERVER_PORT),
                            "@" + server.serverAddress(), name, "A", "+time=1", "+tries=1");
                    return answer.succeeded() && answer.stdout().contains("status: NXDOMAIN");
                });
            }
        }
    }

    /** @throws IllegalStateException before {@link #startAgents} */
    public KubernetesControlPlane controlPlane() {
        if (plane == null) {
            throw new IllegalStateException("the agents of " + set.name() + " have not started");
        }
        return plane;
    }

    public LabStateFile stateFile() {
        return stateFile;
    }

    /** The name the lab's commands know this lab by (its state records it). */
    public Path file() {
        return file;
    }

    public List<String> progress() {
        return List.copyOf(progress);
    }

    /**
     * What the node's kernel still lacks or holds too much of, against the node's Submariner layer in
     * {@code periscope plan}: read back from the namespace by the dataplane reconciler's own reader
     * (the check {@code lab up} ends with), with Periscope's ownership; empty once they agree.
     */
    public List<String> differences(HostNamespace node) {
        return differences(node, plan);
    }

    /** What the node's kernel still lacks or holds too much of, against its Submariner layer in {@code expected}. */
    public List<String> differences(HostNamespace node, ClusterSetPlan expected) {
        try (NamespaceThread thread = NamespaceThread.enter(node.namespace())) {
            Reconciler reader = new Reconciler(new NamespaceCommandRunner(thread), Ownership.submariner());
            return reader.diff(expected.host(node.host()).orElseThrow().submariner()).changes().stream().map(DataplaneChange::toString).toList();
        }
    }

    /** Runs a program inside one of the lab's namespaces; a failure is a result, not an exception. */
    public CommandResult inNamespace(String namespace, String... argv) {
        return runner.execute(Command.of(argv).inNamespace(namespace));
    }

    /** The agents' processes first (they release their Leases), then the API servers, then every namespace of the lab. */
    @Override
    public void close() {
        try {
            if (plane != null) {
                plane.close();
            }
        } finally {
            LabState state = stateFile.read(layout.names().hash())
                    .orElseGet(() -> new LabState(set.name(), "", layout.names().hash(), layout.namespaces(), LabState.BUILDING));
            new LabTeardown(runner, stateFile).remove(state);
        }
    }

    /**
     * The lab's agents for the environment only: kube-proxy's stand-in programs its chains, as
     * kube-proxy has on a node before Submariner is installed; Periscope's layer is left empty for the
     * production agents, so {@code lab up}'s convergence check asks nothing of it.
     */
    private static final class EnvironmentAgents implements LayerAgents {

        private final ReconcilingAgents lab = new ReconcilingAgents();

        @Override
        public LayerAgent kubeProxy(HostNamespace node) {
            return lab.kubeProxy(node);
        }

        @Override
        public LayerAgent submariner(HostNamespace node) {
            return new LayerAgent() {
                @Override
                public List<String> reconcile() {
                    return List.of();
                }

                @Override
                public List<String> pendingChanges() {
                    return List.of();
                }
            };
        }

        @Override
        public void close() {
            lab.close();
        }
    }
}
