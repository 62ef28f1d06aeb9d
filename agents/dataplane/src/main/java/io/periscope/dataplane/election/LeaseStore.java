package io.periscope.dataplane.election;

import java.util.Optional;

/**
 * Where a lease lives: a Kubernetes Lease object, or a file of the lab. Every write is a compare
 * and swap against the version read, so that two candidates never both believe they took it.
 */
public interface LeaseStore {

    /** A lease and the version it was read at (a resourceVersion, a counter). */
    record Versioned(LeaseRecord record, String version) {
    }

    /**
     * @return the lease, empty when there is none yet
     * @throws Unreachable when the store cannot be read (the API server is away, the node is cut off)
     */
    Optional<Versioned> read();

    /**
     * Creates the lease when {@code expectedVersion} is empty, else replaces the version read.
     *
     * @return the new version, empty when another candidate wrote first (nothing was written)
     * @throws Unreachable when the store cannot be written
     */
    Optional<String> write(Optional<String> expectedVersion, LeaseRecord record);

    /** The store could not be reached; a leader that cannot renew within its deadline steps down. */
    final class Unreachable extends RuntimeException {
        public Unreachable(String message, Throwable cause) {
            super(message, cause);
        }

        public Unreachable(String message) {
            super(message);
        }
    }
}
