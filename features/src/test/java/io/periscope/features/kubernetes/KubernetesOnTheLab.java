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
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    private final ClusterSet set;
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
        this.file = Path.of(set.name() + ".yaml");
        this.stateFile = new LabStateFile(stateDirectory);
        this.layout = LabLayout.of(Planner.plan(set));
    }

    /**
     * Builds the namespaces, as a cluster holds its nodes before Submariner is installed; no agent runs
     * yet ({@link #startAgents}).
     *
     * @throws IllegalArgumentException for a cluster set whose cables the lab would build differently
     *                                  (Libreswan as VXLAN): the agents program what the Cluster
     *                                  objects name, so the two would not be the same cluster set
     */
    public static KubernetesOnTheLab up(ClusterSet set, Path stateDirectory) {
        List<String> substituted = LabCables.of(set).substitutions();
        if (!substituted.isEmpty()) {
            throw new IllegalArgumentException("the lab would build " + set.name() + "'s cables differently from what its agents program: " + substituted);
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
        plane = KubernetesControlPlane.startProcesses(set, globalCidrs(plan()), processes);
        for (Cluster cluster : set.clusters()) {
            writeEndpointSlices(plane.cluster(cluster.name()));
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
    private static void writeEndpointSlices(MemberCluster member) {
        Cluster cluster = member.model();
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
            member.client().resource(new EndpointSliceBuilder().withNewMetadata().withName(service.name() + "-lab").withNamespace(service.namespace())
                    .withLabels(Map.of(ReadyPods.SERVICE_NAME_LABEL, service.name())).endMetadata()
                    .withAddressType("IPv4").withEndpoints(endpoints)
                    .withPorts(service.ports().stream().map(p -> new EndpointPortBuilder().withName(p.name().orElse("")).withPort(p.targetPort())
                            .withProtocol(p.protocol().name()).build()).toList())
                    .build()).create();
        }
    }

    /** The global CIDRs the broker hands out, as {@code periscope plan} allocates them (none without Globalnet). */
    private static Map<String, Ipv4Prefix> globalCidrs(ClusterSetPlan plan) {
        Map<String, Ipv4Prefix> cidrs = new LinkedHashMap<>();
        for (Cluster cluster : plan.clusterSet().clusters()) {
            plan.allocations().cluster(cluster.name()).ifPresent(a -> cidrs.put(cluster.name(), a.globalCidr()));
        }
        return cidrs;
    }

    public ClusterSet set() {
        return set;
    }

    /** What {@code periscope plan} says for the cluster set: the plan each node's kernel is compared with. */
    public ClusterSetPlan plan() {
        return Planner.plan(set);
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
        try (NamespaceThread thread = NamespaceThread.enter(node.namespace())) {
            Reconciler reader = new Reconciler(new NamespaceCommandRunner(thread), Ownership.submariner());
            return reader.diff(node.plan().submariner()).changes().stream().map(DataplaneChange::toString).toList();
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
