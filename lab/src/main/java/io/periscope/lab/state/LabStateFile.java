package io.periscope.lab.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Where a lab's {@link LabState} lives: {@code /run/periscope/lab-<hash>.json} (a tmpfs, so a reboot,
 * which also removes every namespace, forgets the lab too). Written atomically: a lab is either
 * recorded whole or not at all.
 */
public final class LabStateFile {

    public static final Path DEFAULT_DIRECTORY = Path.of("/run/periscope");

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path directory;

    public LabStateFile(Path directory) {
        this.directory = directory;
    }

    public LabStateFile() {
        this(DEFAULT_DIRECTORY);
    }

    public Path pathFor(String hash) {
        return directory.resolve("lab-" + hash + ".json");
    }

    /** The lab's own directory beside its state file: the supervisor's log, control file and status, saved routes. */
    public Path directoryFor(String hash) {
        return directory.resolve("lab-" + hash + ".d");
    }

    /**
     * The lab of this hash if {@code up} finished building it.
     *
     * @throws io.periscope.lab.LabRefusal when there is none, saying whether an unfinished {@code up} left one half built and how to remove it
     */
    public LabState requireUp(String hash, String topology, Path file) {
        Optional<LabState> state = read(hash);
        if (state.isEmpty()) {
            throw new io.periscope.lab.LabRefusal("no lab of topology '" + topology + "' is up; run 'lab up " + file + "' first");
        }
        collision(state.get(), topology, file).ifPresent(collision -> {
            throw new io.periscope.lab.LabRefusal(collision);
        });
        if (!state.get().state().equals(LabState.CONVERGED)) {
            throw new io.periscope.lab.LabRefusal(halfBuilt(state.get()));
        }
        return state.get();
    }

    /**
     * The lab found under a topology's hash is another topology's when their names hash alike (six hex
     * digits of SHA-256, so one pair in about sixteen million): each is named for what it is.
     */
    public Optional<String> collision(LabState found, String topology, Path file) {
        if (found.topology().equals(topology)) {
            return Optional.empty();
        }
        return Optional.of("the lab in " + pathFor(found.hash()) + " is of another topology, '" + found.topology() + "' (built from "
                + found.file() + "), whose name hashes like '" + topology + "' of " + file + " (both labs' namespaces would be psc-"
                + found.hash() + "-*), so the two cannot be up together; nothing was done.\nRename topology '" + topology + "' (its name: in "
                + file + "), or remove the other lab first: 'lab down " + found.file() + "'");
    }

    /**
     * What {@code lab up} and the commands acting on a lab say of a lab {@code up} began and did not finish:
     * it may still be running, or it was stopped in a way that left no chance to clean up (SIGKILL, a
     * crash of the machine's power aside: a reboot also removes the namespaces and this tmpfs).
     */
    public String halfBuilt(LabState state) {
        long present = state.namespaces().stream().filter(io.periscope.lab.netns.NetworkNamespaces::exists).count();
        return "the lab of topology '" + state.topology() + "' is not up: a 'lab up " + state.file() + "' began building it and did not finish"
                + " (it is still running, or it was killed before it could clean up); " + present + " of its " + state.namespaces().size()
                + " namespaces exist (state in " + pathFor(state.hash()) + ").\nIf no 'lab up' is running, remove what is left with 'lab down "
                + state.file() + "'";
    }

    /** Every lab recorded here, built or half built, in the order of their hashes. */
    public java.util.List<LabState> all() {
        if (!Files.isDirectory(directory)) {
            return java.util.List.of();
        }
        try (var files = Files.list(directory)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("lab-[0-9a-f]+\\.json")).sorted()
                    .map(n -> read(n.substring("lab-".length(), n.length() - ".json".length()))).flatMap(Optional::stream).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the labs' state files in " + directory + ": " + e.getMessage(), e);
        }
    }

    public Optional<LabState> read(String hash) {
        Path path = pathFor(hash);
        if (!Files.exists(path)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(path.toFile(), LabState.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the lab's state file " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes into {@code lab-<hash>.json.tmp} and renames that over the state file: a reader sees the old
     * state or the new one, never half of one. The temporary file has one fixed name, so one left by a
     * JVM that halted in between is overwritten by the next write and removed by {@link #delete}.
     */
    public void write(LabState state) {
        Path path = pathFor(state.hash());
        synchronized (LabStateFile.class) {
            try {
                Files.createDirectories(directory);
                Path temporary = temporaryFor(state.hash());
                Files.write(temporary, JSON.writeValueAsBytes(state));
                Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the lab's state file " + path + ": " + e.getMessage(), e);
            }
        }
    }

    /** Where {@link #write} puts the new state before it renames it over the old one. */
    public Path temporaryFor(String hash) {
        return directory.resolve("lab-" + hash + ".json.tmp");
    }

    /** Deletes the state file, a temporary one left beside it, and the lab's directory. */
    public void delete(String hash) {
        synchronized (LabStateFile.class) {
            deleteAll(hash);
        }
    }

    private void deleteAll(String hash) {
        try {
            Path labDirectory = directoryFor(hash);
            if (Files.isDirectory(labDirectory)) {
                try (var paths = Files.walk(labDirectory)) {
                    for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(path);
                    }
                }
            }
            Files.deleteIfExists(pathFor(hash));
            // and the temporary files of earlier versions, which had a random part in their names
            if (Files.isDirectory(directory)) {
                try (var temporaries = Files.newDirectoryStream(directory, "lab-" + hash + "*.tmp")) {
                    for (Path temporary : temporaries) {
                        Files.deleteIfExists(temporary);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the lab's state file " + pathFor(hash) + ": " + e.getMessage(), e);
        }
    }
}
