package io.periscope.lab.lease;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.dataplane.election.LeaseRecord;
import io.periscope.dataplane.election.LeaseStore;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A cluster's gateway lease in the lab: a JSON file under the lab's directory, which stands for
 * the Lease object of the cluster's API server. The compare and swap holds the file's lock (an
 * {@code flock} on a lock file beside it, and a lock of the JVM's, since one JVM cannot hold two
 * {@code flock}s on one file) while it reads the version and writes the next one; the file itself
 * is replaced by a rename, so a reader without the lock sees the old lease or the new one.
 *
 * <p>{@code reachable} says whether the candidate's node can reach the store at all: a failed node
 * (links down, blackholed) cannot, as it could not reach an API server.
 */
public final class LabLeaseStore implements LeaseStore {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

    /** The file's content: the lease as client-go writes it, plus the version the swap compares. */
    record LeaseFile(long version, String holderIdentity, String acquireTime, String renewTime, long leaseDurationMillis, int leaseTransitions) {

        LeaseRecord record() {
            return new LeaseRecord(holderIdentity, Instant.parse(acquireTime), Instant.parse(renewTime), Duration.ofMillis(leaseDurationMillis),
                    leaseTransitions);
        }

        static LeaseFile of(long version, LeaseRecord record) {
            return new LeaseFile(version, record.holder(), record.acquired().toString(), record.renewed().toString(),
                    record.duration().toMillis(), record.transitions());
        }
    }

    private final Path file;
    private final BooleanSupplier reachable;
    private final String who;

    /**
     * @param file      the lease's file (its directory is created when missing)
     * @param reachable whether the candidate using this store can reach it now
     * @param who       the candidate, for the message when it cannot
     */
    public LabLeaseStore(Path file, BooleanSupplier reachable, String who) {
        this.file = file;
        this.reachable = reachable;
        this.who = who;
    }

    /** A store for readers: always reachable. */
    public static LabLeaseStore reader(Path file) {
        return new LabLeaseStore(file, () -> true, "reader");
    }

    public Path file() {
        return file;
    }

    @Override
    public Optional<Versioned> read() {
        requireReachable();
        return readFile().map(f -> new Versioned(f.record(), Long.toString(f.version())));
    }

    @Override
    public Optional<String> write(Optional<String> expectedVersion, LeaseRecord record) {
        requireReachable();
        ReentrantLock jvm = IN_JVM.computeIfAbsent(file.toAbsolutePath().normalize(), p -> new ReentrantLock());
        jvm.lock();
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel lock = FileChannel.open(lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lock.lock()) {
                Optional<LeaseFile> current = readFile();
                if (!expectedVersion.equals(current.map(f -> Long.toString(f.version())))) {
                    return Optional.empty();
                }
                long next = current.map(LeaseFile::version).orElse(0L) + 1;
                Path temporary = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
                Files.writeString(temporary, JSON.writeValueAsString(LeaseFile.of(next, record)));
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                return Optional.of(Long.toString(next));
            }
        } catch (IOException e) {
            throw new Unreachable("cannot write the lease " + file + ": " + e.getMessage(), e);
        } finally {
            jvm.unlock();
        }
    }

    private Path lockFile() {
        return file.resolveSibling(file.getFileName() + ".lock");
    }

    private void requireReachable() {
        if (!reachable.getAsBoolean()) {
            throw new Unreachable(who + " cannot reach the lease store: its node is failed");
        }
    }

    private Optional<LeaseFile> readFile() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), LeaseFile.class));
        } catch (IOException e) {
            throw new Unreachable("cannot read the lease " + file + ": " + e.getMessage(), e);
        }
    }
}
