package io.periscope.lab.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The file a lab was built from: its absolute path and the SHA-256 of its bytes. The namespaces are
 * named after the topology's {@code name:} only, so two files of the same name would share a lab;
 * the state records this so that {@code down} and {@code probe} of another file, or of the same
 * file after an edit, are refused instead of acting on a lab that file did not build.
 *
 * @param file   the absolute, normalised path
 * @param sha256 the content's hash in hex, empty when the file could not be read (a topology built
 *               in code by a test has no file); an empty hash is never compared
 */
public record TopologySource(String file, String sha256) {

    public static TopologySource of(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        String hash = "";
        if (Files.isRegularFile(absolute)) {
            try {
                hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(absolute)));
            } catch (IOException e) {
                // unreadable now: the loader has just read it, so this is a race with an edit; compare paths only
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
        }
        return new TopologySource(absolute.toString(), hash);
    }

    /** Why the lab {@code state} describes was built from another file, if it was. */
    public Optional<String> otherFile(LabState state) {
        if (Path.of(state.file()).toAbsolutePath().normalize().toString().equals(file)) {
            return Optional.empty();
        }
        return Optional.of("the lab of topology '" + state.topology() + "' that is up was built from " + state.file()
                + ", not from " + file + " (both files name the topology '" + state.topology() + "')");
    }

    /** How this file changed since {@code lab up} built the lab {@code state} describes from it, if it did. */
    public Optional<String> changedSince(LabState state) {
        if (sha256.isEmpty() || state.sourceSha256() == null || state.sourceSha256().isEmpty() || state.sourceSha256().equals(sha256)) {
            return Optional.empty();
        }
        return Optional.of(file + " has changed since 'lab up' built the lab of topology '" + state.topology()
                + "' from it (SHA-256 " + state.sourceSha256().substring(0, 12) + "... then, " + sha256.substring(0, 12) + "... now)");
    }
}
