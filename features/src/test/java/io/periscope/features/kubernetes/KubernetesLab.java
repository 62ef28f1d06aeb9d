package io.periscope.features.kubernetes;

import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.features.backend.Deployment;
import io.periscope.features.backend.LabDriver;
import io.periscope.features.backend.LabExitGuard;
import io.periscope.lab.failover.LabFailure;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.load.TopologyException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kubernetes-on-lab backend's lab: {@link KubernetesOnTheLab} of the scenario's cluster set,
 * the production agents started on it (each a process of its own inside the namespace of the node
 * it runs on, {@link LabNodeProcesses}) and waited for until every node's
 * kernel reads back as its layer in {@code periscope plan}. One lab at a time; a change that only
 * deletes exports, pods or GlobalEgressIPs goes to the running API servers and agents, any other
 * rebuilds the lab ({@link #takeNotes} says which); the notes also carry what a failover
 * measured (how soon the agents found the gateway down, how long its streams went without packets). A JVM shutdown hook takes the lab down if
 * the run ends without {@link #down}, even in the middle of a build ({@link LabExitGuard}).
 */
public final class KubernetesLab implements LabDriver {

    /**
     * Informers, Leases, the Endpoints' trip through the broker and a few reconciles: seconds on a fast
     * machine. A bound, not an expectation: on a 2-core guest where a process start costs 4 ms, labs of
     * 20 and 21 agents took 104 to 156 s to build and converge (docs/kubernetes.md), so 120 s was too near.
     */
    static final Duration CONVERGENCE = Duration.ofSeconds(240);
    private static final Duration POLL = Duration.ofMillis(250);

    private final ProcessCommandRunner runner = ProcessCommandRunner.here();
    private final List<String> notes = new ArrayList<>();
    private KubernetesOnTheLab lab;
    private KubernetesDeployment deployment;
    private Path stateDirectory;
    private final LabExitGuard guard = LabExitGuard.armed("kubernetes-on-lab", this::takeDown);

    @Override
    public Deployment up(ClusterSet set) {
        return guard.building(() -> build(set));
    }

    private Deployment build(ClusterSet set) {
        takeDown();
        try {
            stateDirectory = Files.createTempDirectory("periscope-acceptance-k8s");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the lab's state directory", e);
        }
        long started = System.nanoTime();
        lab = KubernetesOnTheLab.up(set, stateDirectory);
        long namespacesUp = System.nanoTime();
        KubernetesControlPlane plane = lab.startAgents();
        awaitConvergence();
        if (set.clusters().stream().anyMatch(c -> !c.exports().isEmpty())) {
            lab.awaitExportedNames();
        }
        long now = System.nanoTime();
        System.out.println("[kubernetes-on-lab] " + set.name() + ": namespaces up and the agents converged in "
                + (now - started) / 1_000_000 + " ms (namespaces " + (namespacesUp - started) / 1_000_000 + " ms, agents "
                + (now - namespacesUp) / 1_000_000 + " ms); " + startTimes(lab.agentStartMillis()));
        deployment = new KubernetesDeployment(lab, plane, runner);
        return deployment;
    }

    /** The agents' JVMs from process start to {@code main}: how many, the fastest, the median and the slowest. */
    static String startTimes(Map<String, Long> millis) {
        List<Long> sorted = millis.values().stream().filter(m -> m >= 0).sorted().toList();
        if (sorted.isEmpty()) {
            return "no agent process reached main";
        }
        return sorted.size() + " agent processes, JVM start to main " + sorted.getFirst() + " / " + sorted.get(sorted.size() / 2) + " / "
                + sorted.getLast() + " ms (fastest / median / slowest)";
    }

    /**
     * Only the {@code @kubernetes} scenarios run on this backend, and none of them hands it a cluster
     * set to refuse: the lab backend's {@code lab up} answers refusals ({@code NamespaceLab#refuse}).
     */
    @Override
    public Optional<TopologyException> refuse(String yaml) {
        throw new UnsupportedOperationException("the kubernetes-on-lab backend runs no refusal scenario: tag it @kubernetes only when"
                + " KubernetesLab can give the file to its API servers' admission, or leave it to the lab backend");
    }

    /**
     * Deletions of exports, pods and GlobalEgressIPs go to the running API servers
     * ({@link KubernetesOnTheLab#apply}) and the running agents must remove what they programmed: the
     * change returns once every node's kernel reads back as the changed set's plan, every object the
     * change released has left the API, and no DNS server answers a deleted export's name any more.
     * Any other change rebuilds the lab, and the notes say why.
     */
    @Override
    public Deployment change(ClusterSet set) {
        return guard.building(() -> changeInPlace(set));
    }

    private Deployment changeInPlace(ClusterSet set) {
        if (lab == null) {
            notes.add("built anew: no kubernetes-on-lab of '" + set.name() + "' was running to take the change");
            return build(set);
        }
        ClusterSet before = lab.set();
        var planBefore = lab.plan();
        long started = System.nanoTime();
        Optional<String> refused = lab.apply(set);
        if (refused.isPresent()) {
            notes.add("rebuilt: the kubernetes-on-lab backend takes only deleted exports, pods and GlobalEgressIPs in place, so no deletion by "
                    + "the agents is shown here; this change: " + refused.get());
            return build(set);
        }
        awaitConvergence();
        awaitReleased(planBefore, lab.plan());
        lab.awaitRemovedNames(before);
        notes.add("applied in place: the API objects deleted, the running agents reconciled every node to the changed plan in "
                + (System.nanoTime() - started) / 1_000_000 + " ms");
        deployment = new KubernetesDeployment(lab, deployment.controlPlane().orElseThrow(), runner);
        return deployment;
    }

    /** Every global IP the change released is gone from the object that held it (the first design's annotations too). */
    private void awaitReleased(io.periscope.plan.ClusterSetPlan before, io.periscope.plan.ClusterSetPlan after) {
        for (var cluster : before.allocations().clusters().entrySet()) {
            var client = lab.controlPlane().cluster(cluster.getKey()).client();
            java.util.Set<String> kept = after.allocations().cluster(cluster.getKey()).map(a -> a.allocations().stream()
                    .map(io.periscope.model.globalnet.GlobalIpAllocation::requester).collect(java.util.stream.Collectors.toSet()))
                    .orElse(java.util.Set.of());
            for (var allocation : cluster.getValue().allocations()) {
                if (!kept.contains(allocation.requester())) {
                    Eventually.await("cluster " + cluster.getKey() + "'s Globalnet releases the global IP of " + allocation.requester(),
                            () -> ApiGlobalnet.read(client, allocation.requester()).map(o -> o.addresses().isEmpty()).orElse(true));
                }
            }
        }
    }

    @Override
    public List<String> takeNotes() {
        return guard.locked(this::notesSoFar);
    }

    private List<String> notesSoFar() {
        List<String> taken = new ArrayList<>(notes);
        notes.clear();
        if (deployment != null) {
            taken.addAll(deployment.takeNotes());
        }
        return taken;
    }

    /** Every node's kernel as periscope plan says, or the run fails naming what each node lacks or holds too much of. */
    private void awaitConvergence() {
        // Nodes without a host in the plan (none of Submariner's layer) have nothing to agree on.
        List<HostNamespace> planned = lab.layout().nodes().stream().filter(node -> lab.expectedPlan().host(node.host()).isPresent()).toList();
        Map<HostNamespace, List<String>> left;
        try {
            left = new NodeConvergence<>(planned, node -> lab.differences(node, lab.expectedPlan()), POLL).await(CONVERGENCE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the agents converged", e);
        }
        if (!left.isEmpty()) {
            Map<String, List<String>> byNode = new LinkedHashMap<>();
            left.forEach((node, differences) -> byNode.put(node.host().toString(), differences));
            throw new AssertionError("the production agents did not program " + lab.set().name() + " as periscope plan says within "
                    + CONVERGENCE.toSeconds() + " s (" + lab.controlPlane().processes().map(LabNodeProcesses::describe).orElse("") + "); still different: " + byNode);
        }
    }

    @Override
    public void healFailures() {
        guard.locked(this::heal);
    }

    private void heal() {
        if (lab == null) {
            return;
        }
        UpLab up = UpLab.of(lab.file(), lab.set(), lab.stateFile(), "acceptance");
        up.current().failures().forEach(failure -> new LabFailure(runner).heal(up, failure.node(), line -> { }));
    }

    @Override
    public void down() {
        guard.locked(this::takeDown);
    }

    /** Under the guard's lock: from {@link #down}, from a new build, or from the JVM's shutdown hook. */
    private void takeDown() {
        if (lab != null) {
            KubernetesOnTheLab going = lab;
            lab = null;
            deployment = null;
            going.close();
        }
        if (stateDirectory != null) {
            try {
                Files.deleteIfExists(stateDirectory);
            } catch (IOException e) {
                System.out.println("[kubernetes-on-lab] state directory " + stateDirectory + " kept: " + e.getMessage());
            }
            stateDirectory = null;
        }
    }
}
