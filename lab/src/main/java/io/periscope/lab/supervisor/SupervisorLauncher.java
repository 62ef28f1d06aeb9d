package io.periscope.lab.supervisor;

import io.periscope.dataplane.reconcile.SkipDeletionsMutation;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.SupervisorProcess;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.topology.ClusterSet;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Starts the {@link LabSupervisor} of a lab that {@code up} has just built: a child JVM from the same
 * jar (the same class path), in a session of its own ({@code setsid}) so that the terminal's Ctrl-C
 * and hang-up do not reach it, its output in {@code supervisor.log} in the lab's directory. Its pid
 * and start time go into the state file as soon as it exists; the launch returns once the supervisor
 * reports every node's agent running.
 */
public final class SupervisorLauncher {

    static final Duration READY_WITHIN = Duration.ofSeconds(60);

    private final LabStateFile stateFile;

    public SupervisorLauncher(LabStateFile stateFile) {
        this.stateFile = stateFile;
    }

    /**
     * @param set the topology as {@code up} built it (written into the lab's directory for the supervisor)
     * @throws IllegalStateException when the supervisor does not come up; it is then stopped again
     */
    public SupervisorProcess start(ClusterSet set, String hash, Consumer<String> progress) {
        LabState state = stateFile.read(hash).orElseThrow(() -> new IllegalStateException("no lab " + hash + " to supervise"));
        SupervisorFiles files = new SupervisorFiles(stateFile.directoryFor(hash));
        // Without its flows: the supervisor programs nodes and answers names, and a generated set's flows
        // may use names a person's file may not (cluster.service.namespace...).
        files.writeAtomically(files.topology(), TopologyWriter.write(set.withFlows(List.of())));
        files.writeStoppedNodes(java.util.Set.of());
        Process process;
        try {
            process = new ProcessBuilder(command(stateFile.directoryFor(hash).getParent(), hash))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(files.log().toFile()))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the lab's supervisor: " + e.getMessage(), e);
        }
        ProcessHandle handle = process.toHandle();
        Instant started = handle.info().startInstant().orElse(Instant.EPOCH);
        SupervisorProcess supervisor = new SupervisorProcess(handle.pid(), started.toString(),
                ProcessStart.ticksSinceBoot(handle.pid()).orElse(0), files.directory().toString());
        stateFile.write(state.withSupervisor(supervisor));
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the lab's supervisor ended at once (exit " + process.exitValue() + "); the end of "
                        + files.log() + ":\n" + tail(files.log()));
            }
            Optional<SupervisorStatus> status = files.readStatus();
            if (status.isPresent() && status.get().pid() == handle.pid() && !status.get().nodes().isEmpty()
                    && status.get().nodes().values().stream().allMatch(SupervisorStatus.NodeAgentStatus::running)) {
                progress.accept("supervisor: pid " + handle.pid() + " keeps " + status.get().nodes().size()
                        + " nodes' agents running with health checking, and " + status.get().dns().size() + " clusters' DNS servers"
                        + " (log " + files.log() + ")");
                return supervisor;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                // up is being undone (Ctrl-C): the undo stops the supervisor with the rest of the lab
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the lab's supervisor started", e);
            }
        }
        new SupervisorStop().stop(supervisor, progress);
        throw new IllegalStateException("the lab's supervisor did not report its agents running within " + READY_WITHIN.toSeconds()
                + " s; the end of " + files.log() + ":\n" + tail(files.log()));
    }

    /** The same Java, the same class path, a small heap: the supervisor holds one plan and a thread per node. */
    static List<String> command(Path stateDirectory, String hash) {
        List<String> command = new ArrayList<>();
        command.add("setsid");
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path")));
        if (SkipDeletionsMutation.on()) {
            // A mutation test drives the lab's agents, which run in this process.
            command.add("-D" + SkipDeletionsMutation.PROPERTY + "=true");
        }
        command.addAll(List.of(LabSupervisor.class.getName(), stateDirectory.toString(), hash));
        return command;
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(cannot read it: " + e.getMessage() + ")";
        }
    }
}
