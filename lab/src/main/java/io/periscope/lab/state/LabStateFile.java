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

    public void write(LabState state) {
        Path path = pathFor(state.hash());
        try {
            Files.createDirectories(directory);
            Path temporary = Files.createTempFile(directory, "lab-" + state.hash(), ".tmp");
            JSON.writeValue(temporary.toFile(), state);
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the lab's state file " + path + ": " + e.getMessage(), e);
        }
    }

    /** Deletes the state file and the lab's directory beside it. */
    public void delete(String hash) {
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the lab's state file " + pathFor(hash) + ": " + e.getMessage(), e);
        }
    }
}
