package io.periscope.lab.apply;

import io.periscope.lab.LabRefusal;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.dns.PodResolverFiles;
import io.periscope.lab.layout.LabBatches;
import io.periscope.plan.HostId;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.TopologySource;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;
import io.periscope.lab.supervisor.SupervisorStop;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostPlan;
import io.periscope.planner.Planner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code lab apply FILE}: a running lab takes its edited file in place, when the edit is one it can
 * take without creating or removing anything {@code up} built ({@link TopologyChange}): the new
 * SHA-256 goes into the lab's state, the topology goes to the supervisor the way it is driven (its
 * topology file in the lab's directory, replaced atomically, which it reads every tick), and the
 * command returns once the supervisor plans from it, every running agent has found its node to
 * match the new plan and its link loop has found the links as the file asks (a rate, queue, loss or
 * delay changed in place), as {@code up} returns once every node converged. What an edit drops the
 * agents delete, level-driven (a deleted export's Globalnet rules, a policy's routes); kube-proxy's
 * chains, which {@code up} programmed, follow an export's global IP before the hand-over. The DNS servers replace their
 * zones when the supervisor takes the file, before the agents have programmed anything. A node or
 * pod removed for good leaves in place too: once the agents that stay converged without it, the CNI's
 * routes of the hosts left follow ({@link CniCleanup}), its veths and namespace are deleted and the
 * lab's state lists what is left ({@link #removeHosts}).
 */
public final class LabApply {

    static final Duration CONVERGED_WITHIN = Duration.ofSeconds(60);
    /** How long a deleted veth's far end, a bridge port, may take to go. */
    static final Duration PORTS_GONE_WITHIN = Duration.ofSeconds(10);

    private final LabStateFile stateFile;
    private final Supplier<Boolean> runningAsRoot;
    private final CommandRunner runner;

    public LabApply(LabStateFile stateFile) {
        this(stateFile, NetworkNamespaces::runningAsRoot, ProcessCommandRunner.here());
    }

    LabApply(LabStateFile stateFile, Supplier<Boolean> runningAsRoot, CommandRunner runner) {
        this.stateFile = stateFile;
        this.runningAsRoot = runningAsRoot;
        this.runner = runner;
    }

    /**
     * @param handedOver the {@link System#nanoTime} at which the supervisor's file was replaced; 0 when nothing was handed over
     * @param millis     from the start of {@code apply} until every agent converged
     */
    public record Applied(TopologyChange change, String revision, long handedOver, long millis) {
    }

    /**
     * @param topology the edited file's topology, loaded and validated
     * @throws LabRefusal when not root, when no lab of the file is up (or another file built it), when
     *                    it has no running supervisor, or when the edit needs {@code lab down} + {@code lab up}
     */
    public Applied run(Path file, ClusterSet topology, Consumer<String> progress) {
        if (!runningAsRoot.get()) {
            throw new LabRefusal("lab apply needs root to change the running lab; run it as root (for example with sudo)");
        }
        long start = System.nanoTime();
        LabLayout layout = LabLayout.of(Planner.plan(LabCables.of(topology).set()));
        LabState state = stateFile.requireUp(layout.names().hash(), topology.name(), file);
        TopologySource source = TopologySource.of(file);
        source.otherFile(state).ifPresent(other -> {
            throw new LabRefusal(other + "; nothing was applied.\nApply that file instead ('lab apply " + state.file()
                    + "'), or replace its lab: 'lab down " + state.file() + "', then 'lab up " + file + "'");
        });
        SupervisorFiles files = new SupervisorFiles(stateFile.directoryFor(state.hash()));
        if (state.supervisor() == null || !SupervisorStop.running(state.supervisor()) || !Files.exists(files.topology())) {
            throw new LabRefusal("the lab of '" + topology.name() + "' has no running supervisor to hand the topology to"
                    + (state.supervisor() == null ? "" : "; see its log " + files.log()) + "; run 'lab down " + file + "' and 'lab up "
                    + file + "' again");
        }
        ClusterSet running = read(files.topology());
        // Written and read back as the supervisor reads it, so that both sides are compared alike.
        Path next = files.directory().resolve("topology.yaml.next");
        files.writeAtomically(next, TopologyWriter.write(topology.withFlows(List.of())));
        boolean handed = false;
        try {
            ClusterSet edited = read(next);
            TopologyChange change = TopologyChange.between(running, edited);
            if (!change.takenInPlace()) {
                throw new LabRefusal(file + ": the running lab cannot take this change in place:\n  "
                        + String.join("\n  ", change.refusals())
                        + "\nnothing was changed; rebuild the lab instead: 'lab down " + file + "', then 'lab up " + file + "'");
            }
            stateFile.write(stateFile.read(state.hash()).orElse(state).withSourceSha256(source.sha256()));
            if (change.none()) {
                progress.accept("apply: nothing the lab runs changed (flows are the probe's); the lab's state now records the file as it is");
                return new Applied(change, files.revision(), 0, (System.nanoTime() - start) / 1_000_000);
            }
            progress.accept("apply: " + String.join(", ", change.changed()) + " changed; the running lab takes it in place");
            kubeProxy(running, edited, progress);
            move(next, files.topology());
            handed = true;
            long handedOver = System.nanoTime();
            String revision = files.revision();
            progress.accept("apply: handed to the supervisor (" + files.topology() + ", revision " + revision.substring(0, 12) + "...)");
            waitForAgents(files, revision, progress, handedOver);
            if (!change.removed().isEmpty()) {
                removeHosts(state.hash(), running, edited, change.removed(), progress);
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            progress.accept("apply: " + topology.name() + " converged in " + millis + " ms");
            return new Applied(change, revision, handedOver, millis);
        } finally {
            if (!handed) {
                deleteQuietly(next);
            }
        }
    }

    /**
     * kube-proxy's chains on the nodes where the edit changes them (an export's global IP is an
     * external IP of Globalnet's internal Service, which kube-proxy answers on), reconciled by the
     * lab's stand-in as kube-proxy follows its Services: Periscope's agents own none of those chains.
     * Done before the hand-over, so that the agents' jumps, which a reconcile of kube-proxy's puts
     * below its own in the built-in chains, are back on top by the time every agent converged.
     */
    private static void kubeProxy(ClusterSet running, ClusterSet edited, Consumer<String> progress) {
        ClusterSetPlan before = Planner.plan(LabCables.of(running).set());
        List<HostNamespace> changed = LabLayout.of(Planner.plan(LabCables.of(edited).set())).nodes().stream()
                .filter(node -> !before.host(node.host()).map(HostPlan::kubeProxy).equals(Optional.of(node.plan().kubeProxy())))
                .toList();
        if (changed.isEmpty()) {
            return;
        }
        try (ReconcilingAgents agents = new ReconcilingAgents()) {
            int programs = 0;
            for (HostNamespace node : changed) {
                programs += agents.kubeProxy(node).reconcile().size();
            }
            progress.accept("apply: kube-proxy's chains follow the Services on " + changed.stream().map(n -> n.host().toString())
                    .collect(Collectors.joining(", ")) + " (" + programs + " programs)");
        }
    }

    /**
     * The removed nodes and pods leave as machines and pods leave a cluster, once the agents of the
     * nodes that remain reconciled without them: the CNI's routes on the hosts that remain follow
     * ({@link CniCleanup}), then each removed host's namespace is deleted, and with it everything in
     * it (its veths, whose far ends are the switches' bridge ports and the nodes' pod interfaces, its
     * routes, rules and chains), and the lab's state lists only the namespaces left.
     */
    private void removeHosts(String hash, ClusterSet running, ClusterSet edited, List<HostId> removed, Consumer<String> progress) {
        ClusterSetPlan before = Planner.plan(LabCables.of(running).set());
        ClusterSetPlan after = Planner.plan(LabCables.of(edited).set());
        LabLayout layout = LabLayout.of(before);
        List<String> cni = new java.util.ArrayList<>();
        for (HostNamespace host : LabLayout.of(after).hosts()) {
            List<String> lines = CniCleanup.lines(before.host(host.host()).orElseThrow(), host.plan());
            if (!lines.isEmpty()) {
                runner.run(Command.of("ip", "-n", host.namespace(), "-batch", "-")
                        .withStdin(lines.stream().map(l -> l + "\n").collect(Collectors.joining())));
                cni.add(host.host() + " (" + lines.size() + ")");
            }
        }
        List<String> namespaces = layout.hosts().stream().filter(h -> removed.contains(h.host())).map(HostNamespace::namespace).toList();
        List<String> present = namespaces.stream().filter(NetworkNamespaces::exists).toList();
        // The veths first, each deleted with its far end at once: the kernel tears a deleted namespace
        // down in the background, its devices seconds later on a busy machine.
        for (String namespace : present) {
            String veths = layout.veths().stream().flatMap(v -> Stream.of(v.first(), v.second())).filter(end -> end.namespace().equals(namespace))
                    .map(end -> "link del " + end.name() + "\n").collect(Collectors.joining());
            if (!veths.isEmpty()) {
                runner.run(Command.of("ip", "-n", namespace, "-batch", "-").withStdin(veths));
            }
        }
        if (!present.isEmpty()) {
            runner.run(Command.of("ip", "-batch", "-").withStdin(LabBatches.deleteNamespaces(present)));
        }
        namespaces.forEach(PodResolverFiles.SYSTEM::remove);
        List<String> left = namespaces.stream().filter(NetworkNamespaces::exists).toList();
        if (!left.isEmpty()) {
            throw new IllegalStateException("namespaces could not be removed: " + String.join(", ", left));
        }
        waitForPortsToGo(layout, removed);
        List<String> nodes = removed.stream().filter(id -> id.namespace().isEmpty()).map(HostId::toString).toList();
        stateFile.read(hash).ifPresent(state -> stateFile.write(state.withoutNamespaces(namespaces, nodes)));
        progress.accept("apply: " + removed.stream().map(HostId::toString).collect(Collectors.joining(", ")) + " left: "
                + namespaces.size() + " namespace" + (namespaces.size() == 1 ? "" : "s") + " deleted with their veths and bridge ports"
                + (cni.isEmpty() ? "" : "; the CNI's routes followed on " + String.join(", ", cni)));
    }

    /** The switches' ports of the removed hosts, which went with their veths: checked, so that apply says if one stayed. */
    private void waitForPortsToGo(LabLayout layout, List<HostId> removed) {
        List<String[]> ports = layout.switches().stream().flatMap(sw -> sw.ports().stream().filter(p -> removed.contains(p.host()))
                .map(p -> new String[]{sw.namespace(), p.name()})).toList();
        long deadline = System.nanoTime() + PORTS_GONE_WITHIN.toNanos();
        List<String> left = List.of();
        while (System.nanoTime() < deadline) {
            left = ports.stream().filter(p -> runner.execute(Command.of("ip", "-n", p[0], "link", "show", p[1])).succeeded())
                    .map(p -> p[0] + "/" + p[1]).toList();
            if (left.isEmpty()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the removed hosts' ports to go", e);
            }
        }
        throw new IllegalStateException("the removed hosts' veths are deleted but the bridge ports " + String.join(", ", left)
                + " are still there after " + PORTS_GONE_WITHIN.toSeconds() + " s");
    }

    /** Until the supervisor plans from {@code revision} and every agent that runs has found its node to match it. */
    private static void waitForAgents(SupervisorFiles files, String revision, Consumer<String> progress, long handedOver) {
        long deadline = System.nanoTime() + CONVERGED_WITHIN.toNanos();
        boolean taken = false;
        boolean linksSaid = false;
        Optional<SupervisorStatus> status = Optional.empty();
        while (System.nanoTime() < deadline) {
            status = files.readStatus();
            if (status.isPresent() && status.get().revision().equals(revision)) {
                if (!taken) {
                    taken = true;
                    progress.accept("apply: the supervisor plans from it and its DNS servers answer from it ("
                            + (System.nanoTime() - handedOver) / 1_000_000 + " ms after the hand-over)");
                }
                Map<String, SupervisorStatus.NodeAgentStatus> nodes = status.get().nodes();
                Set<String> stopped = files.stoppedNodes();
                List<String> pending = pending(status.get(), stopped, revision);
                boolean links = status.get().links().converged().equals(revision);
                if (links && !linksSaid) {
                    linksSaid = true;
                    progress.accept("apply: links as the file asks: " + status.get().links().summary());
                }
                if (pending.isEmpty() && links) {
                    List<String> standing = nodes.entrySet().stream().filter(e -> !e.getValue().running()).map(Map.Entry::getKey).toList();
                    progress.accept("converged: every running node's agent reports no difference" + (standing.isEmpty() ? ""
                            : " (" + String.join(", ", standing) + ": agents stopped by 'lab fail', they program it once healed)"));
                    return;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the agents", e);
            }
        }
        String why = status.isEmpty() || !status.get().revision().equals(revision)
                ? "the supervisor did not take the topology"
                : !status.get().links().converged().equals(revision)
                ? "the links were not shaped as the file asks" + (status.get().links().lastError().isEmpty() ? ""
                : " (last error: " + status.get().links().lastError() + ")")
                : "these agents did not converge: " + String.join(", ", pending(status.get(), files.stoppedNodes(), revision))
                + java.util.stream.Stream.concat(status.get().nodes().values().stream().map(SupervisorStatus.NodeAgentStatus::lastError),
                        status.get().northbound().values().stream().map(SupervisorStatus.NorthboundStatus::lastError)).filter(e -> !e.isEmpty())
                .findFirst().map(e -> " (last error: " + e + ")").orElse("");
        throw new IllegalStateException(why + " within " + CONVERGED_WITHIN.toSeconds() + " s; see " + files.log());
    }

    /** The running nodes' agents, and the OVN-Kubernetes clusters' network plugin syncers, that have not programmed {@code revision} yet. */
    static List<String> pending(SupervisorStatus status, Set<String> stopped, String revision) {
        List<String> pending = status.nodes().entrySet().stream()
                .filter(e -> e.getValue().running() && !stopped.contains(e.getKey()) && !e.getValue().converged().equals(revision))
                .map(Map.Entry::getKey).collect(Collectors.toList());
        status.northbound().forEach((cluster, syncer) -> {
            if (!syncer.converged().equals(revision)) {
                pending.add(cluster + "'s network plugin syncer");
            }
        });
        return pending;
    }

    private static ClusterSet read(Path written) {
        try {
            return TopologyLoader.loadWritten(written);
        } catch (TopologyException e) {
            throw new IllegalStateException("cannot read back " + written + ": " + e.getMessage(), e);
        }
    }

    private static void move(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot hand " + to + " to the supervisor: " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a leftover next to the supervisor's file; lab down removes the directory
        }
    }
}
