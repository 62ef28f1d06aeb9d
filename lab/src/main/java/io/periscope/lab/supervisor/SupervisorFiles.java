package io.periscope.lab.supervisor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The files through which the lab's commands and its supervisor talk, all in the lab's directory
 * beside its state file: the topology the supervisor plans from (replaced by {@code lab apply}), its log, the nodes whose agents are
 * to stand still ({@code agents-stopped}, written by {@code lab fail --mode agent-stop|crash}) and the
 * supervisor's {@link SupervisorStatus}. Plain files, written atomically: either side may restart
 * and read the other's last word.
 */
public record SupervisorFiles(Path directory) {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public Path topology() {
        return directory.resolve("topology.yaml");
    }

    /**
     * The SHA-256 of the topology file the supervisor plans from, in hex: {@code lab apply} replaces
     * the file, the supervisor notices a new revision at its next tick and reports which revision it
     * and each agent have taken.
     */
    public String revision() {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(topology())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + topology() + ": " + e.getMessage(), e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    public Path log() {
        return directory.resolve("supervisor.log");
    }

    public Path stopRequests() {
        return directory.resolve("agents-stopped");
    }

    public Path status() {
        return directory.resolve("supervisor-status.json");
    }

    /** The nodes ({@code cluster/node}) whose agents are to be stopped. */
    public Set<String> stoppedNodes() {
        try {
            if (!Files.exists(stopRequests())) {
                return Set.of();
            }
            return new TreeSet<>(Arrays.stream(Files.readString(stopRequests()).split("\n")).map(String::strip)
                    .filter(line -> !line.isEmpty()).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stopRequests() + ": " + e.getMessage(), e);
        }
    }

    public void writeStoppedNodes(Set<String> nodes) {
        writeAtomically(stopRequests(), String.join("\n", new TreeSet<>(nodes)) + (nodes.isEmpty() ? "" : "\n"));
    }

    public Optional<SupervisorStatus> readStatus() {
        if (!Files.exists(status())) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(status().toFile(), SupervisorStatus.class));
        } catch (IOException e) {
            // Written atomically, so unreadable only when it is not ours: say so to the caller as "no status".
            return Optional.empty();
        }
    }

    void writeStatus(SupervisorStatus status) {
        try {
            writeAtomically(status(), JSON.writeValueAsString(status));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + status() + ": " + e.getMessage(), e);
        }
    }

    public void writeAtomically(Path path, String text) {
        try {
            Files.createDirectories(directory);
            Path temporary = Files.createTempFile(directory, path.getFileName().toString(), ".tmp");
            Files.writeString(temporary, text);
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }
}
