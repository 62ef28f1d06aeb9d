package io.periscope.lab.failover;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.VethEnd;
import io.periscope.lab.layout.VethPair;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.NodeFailure;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code lab fail FILE CLUSTER/NODE --mode M} and {@code lab heal FILE CLUSTER/NODE}. A failure is
 * recorded in the lab's state before anything changes, with every change it is about to make, and a
 * failure that goes wrong half-way is undone before the error is reported: a node is failed whole or
 * not at all. {@code heal} undoes exactly what the record lists, in reverse order.
 *
 * <ul>
 *   <li>{@code crash}: the supervisor stops the node's agents, then the far end of each of the node's
 *       veths is set down, so the node's links lose carrier as when a machine dies (its own devices
 *       stay up, so its own routes stay; a far end in a host namespace has its routes saved first,
 *       because a device set down takes its routes along).</li>
 *   <li>{@code blackhole}: an nftables table of the lab's own in the node's namespace drops every
 *       packet arriving on or leaving by a device other than {@code lo}, before conntrack sees it.</li>
 *   <li>{@code agent-stop}: the supervisor stops only the node's agents.</li>
 * </ul>
 */
public final class LabFailure {

    /** The lab's own nftables table; nothing else in a namespace of the lab uses native nftables. */
    public static final String NFT_TABLE = "periscope_lab_fail";
    static final Duration SUPERVISOR_ANSWERS_WITHIN = Duration.ofSeconds(10);

    private final CommandRunner runner;

    public LabFailure(CommandRunner runner) {
        this.runner = runner;
    }

    public NodeFailure fail(UpLab lab, String reference, FailureMode mode, Consumer<String> progress) {
        HostNamespace node = lab.node(reference);
        LabState state = lab.current();
        Optional<NodeFailure> already = state.failure(reference);
        if (already.isPresent()) {
            throw new LabRefusal(reference + " is already failed (" + already.get().mode() + "); run 'lab heal " + lab.file() + " "
                    + reference + "' first");
        }
        if (mode != FailureMode.BLACKHOLE) {
            lab.requireSupervisor();
        }
        Path saved = lab.stateFile().directoryFor(state.hash()).resolve("routes");
        List<NodeFailure.DownedLink> links = new ArrayList<>();
        if (mode == FailureMode.CRASH) {
            for (VethEnd far : farEnds(lab, node)) {
                boolean host = lab.layout().hosts().stream().anyMatch(h -> h.namespace().equals(far.namespace()));
                links.add(new NodeFailure.DownedLink(far.namespace(), far.name(),
                        host ? saved.resolve(far.namespace() + ".routes").toString() : ""));
            }
        }
        NodeFailure failure = new NodeFailure(reference, mode.text(), node.namespace(), links,
                mode == FailureMode.BLACKHOLE ? NFT_TABLE : "", mode != FailureMode.BLACKHOLE);
        lab.stateFile().write(state.withFailure(failure));
        try {
            if (failure.agentsStopped()) {
                tellSupervisor(lab, reference, false);
            }
            if (!failure.nftTable().isEmpty()) {
                runner.run(Command.of("nft", "-f", "-").inNamespace(node.namespace()).withStdin(blackholeTable()));
            }
            for (NodeFailure.DownedLink link : failure.links()) {
                if (!link.savedRoutes().isEmpty()) {
                    saveRoutes(link);
                }
                runner.run(Command.of("ip", "-n", link.namespace(), "link", "set", "dev", link.device(), "down"));
            }
        } catch (RuntimeException e) {
            progress.accept("fail: " + reference + " could not be failed whole (" + e.getMessage() + "); undoing what was done");
            List<String> left = undo(lab, failure, true);
            if (left.isEmpty()) {
                lab.stateFile().write(lab.current().withoutFailure(reference));
            } else {
                // An interrupted fail cannot run programs any more: what it did stays recorded for the heal that follows.
                progress.accept("fail: could not undo everything (" + String.join("; ", left) + "); the failure stays recorded for 'lab heal'");
            }
            throw e;
        }
        progress.accept("fail: " + reference + " " + describe(failure));
        return failure;
    }

    public NodeFailure heal(UpLab lab, String reference, Consumer<String> progress) {
        lab.node(reference);
        LabState state = lab.current();
        NodeFailure failure = state.failure(reference).orElseThrow(() -> new LabRefusal(reference + " is not failed, so there is nothing to heal"
                + (state.failures().isEmpty() ? "; no node of this lab is failed"
                : "; failed: " + state.failures().stream().map(f -> f.node() + " (" + f.mode() + ")").collect(Collectors.joining(", ")))));
        if (failure.agentsStopped()) {
            lab.requireSupervisor();
        }
        undo(lab, failure, false);
        lab.stateFile().write(lab.current().withoutFailure(reference));
        progress.accept("heal: " + reference + " restored (" + failure.mode() + " undone)");
        return failure;
    }

    static String describe(NodeFailure failure) {
        return switch (FailureMode.parse(failure.mode())) {
            case CRASH -> "crashed: agents stopped, " + failure.links().size() + " links down ("
                    + failure.links().stream().map(LabFailure::describe).collect(Collectors.joining(", ")) + ")";
            case BLACKHOLE -> "blackholed: nftables table " + failure.nftTable() + " drops everything but loopback in " + failure.namespace();
            case AGENT_STOP -> "agents stopped; its datapath keeps forwarding";
        };
    }

    /**
     * A link by its far end: the switch port is named after the node on every switch it plugs into, so the
     * device alone says "gw-1" for each; its namespace without the lab's prefix says which switch (or pod).
     */
    static String describe(NodeFailure.DownedLink link) {
        return link.device() + " in " + link.namespace().replaceFirst("^psc-[0-9a-f]{6}-", "");
    }

    /**
     * Undoes a failure in reverse order. When undoing a failure that went wrong half-way
     * ({@code lenient}), steps that fail are skipped and returned; when healing, every step must succeed.
     */
    private List<String> undo(UpLab lab, NodeFailure failure, boolean lenient) {
        List<String> problems = new ArrayList<>();
        List<NodeFailure.DownedLink> links = new ArrayList<>(failure.links());
        java.util.Collections.reverse(links);
        for (NodeFailure.DownedLink link : links) {
            run(problems, () -> runner.run(Command.of("ip", "-n", link.namespace(), "link", "set", "dev", link.device(), "up")));
            if (!link.savedRoutes().isEmpty() && Files.exists(Path.of(link.savedRoutes()))) {
                run(problems, () -> restoreRoutes(link));
            }
        }
        if (!failure.nftTable().isEmpty()) {
            boolean present = runner.execute(Command.of("nft", "list", "table", "inet", failure.nftTable()).inNamespace(failure.namespace()))
                    .succeeded();
            if (present) {
                run(problems, () -> runner.run(Command.of("nft", "delete", "table", "inet", failure.nftTable()).inNamespace(failure.namespace())));
            }
        }
        if (failure.agentsStopped()) {
            run(problems, () -> tellSupervisor(lab, failure.node(), true));
        }
        if (!problems.isEmpty() && !lenient) {
            throw new IllegalStateException("could not undo everything " + failure.mode() + " changed on " + failure.node() + ": "
                    + String.join("; ", problems) + "; the failure stays recorded, run 'lab heal' again or 'lab down'");
        }
        return problems;
    }

    private static void run(List<String> problems, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            problems.add(String.valueOf(e.getMessage()).strip());
        }
    }

    /** The far end of each veth of the node: the switch port or the pod's {@code eth0} it is plugged into. */
    static List<VethEnd> farEnds(UpLab lab, HostNamespace node) {
        List<VethEnd> ends = new ArrayList<>();
        for (VethPair pair : lab.layout().veths()) {
            if (pair.first().namespace().equals(node.namespace())) {
                ends.add(pair.second());
            } else if (pair.second().namespace().equals(node.namespace())) {
                ends.add(pair.first());
            }
        }
        return ends;
    }

    static String blackholeTable() {
        // Priority -450 is before conntrack (-200) and raw (-300): a dropped packet leaves no trace in the node.
        return "table inet " + NFT_TABLE + " {\n"
                + "  chain arriving { type filter hook prerouting priority -450; policy accept; iifname != \"lo\" drop; }\n"
                + "  chain leaving { type filter hook output priority -450; policy accept; oifname != \"lo\" drop; }\n"
                + "}\n";
    }

    /** Asks the supervisor to stop or resume the node's agents and waits until it says it did. */
    private static void tellSupervisor(UpLab lab, String node, boolean run) {
        SupervisorFiles files = lab.supervisorFiles();
        Set<String> stopped = new TreeSet<>(files.stoppedNodes());
        if (run) {
            stopped.remove(node);
        } else {
            stopped.add(node);
        }
        files.writeStoppedNodes(stopped);
        long deadline = System.nanoTime() + SUPERVISOR_ANSWERS_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<SupervisorStatus.NodeAgentStatus> status = files.readStatus().map(s -> s.nodes().get(node));
            if (status.isPresent() && status.get().running() == run) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException("the lab's supervisor did not " + (run ? "resume" : "stop") + " the agents of " + node + " within "
                + SUPERVISOR_ANSWERS_WITHIN.toSeconds() + " s (see " + files.log() + ")");
    }

    private static void saveRoutes(NodeFailure.DownedLink link) {
        Path file = Path.of(link.savedRoutes());
        try {
            Files.createDirectories(file.getParent());
            Process process = new ProcessBuilder("ip", "-n", link.namespace(), "route", "save", "table", "all")
                    .redirectOutput(file.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("ip route save in " + link.namespace() + " failed (exit " + process.exitValue() + ")");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot save the routes of " + link.namespace() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while saving the routes of " + link.namespace(), e);
        }
    }

    /** Puts back the routes the device took along; {@code ip route restore} skips those still there. */
    private static void restoreRoutes(NodeFailure.DownedLink link) {
        Path file = Path.of(link.savedRoutes());
        try {
            Process process = new ProcessBuilder("ip", "-n", link.namespace(), "route", "restore")
                    .redirectInput(file.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0) {
                throw new IllegalStateException("ip route restore in " + link.namespace() + " failed: " + output.strip());
            }
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot restore the routes of " + link.namespace() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restoring the routes of " + link.namespace(), e);
        }
    }

}
