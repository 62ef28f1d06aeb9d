package io.periscope.dataplane.election;

import java.util.Optional;

/** A lease store in memory, with a version counter; {@link #cutOff} makes it unreachable, as a partition would. */
final class MemoryLeaseStore implements LeaseStore {

    private Optional<Versioned> lease = Optional.empty();
    private long version;
    boolean cutOff;
    int writes;

    @Override
    public synchronized Optional<Versioned> read() {
        if (cutOff) {
            throw new Unreachable("cut off");
        }
        return lease;
    }

    @Override
    public synchronized Optional<String> write(Optional<String> expectedVersion, LeaseRecord record) {
        if (cutOff) {
            throw new Unreachable("cut off");
        }
        if (!expectedVersion.equals(lease.map(Versioned::version))) {
            return Optional.empty();
        }
        String next = Long.toString(++version);
        lease = Optional.of(new Versioned(record, next));
        writes++;
        return Optional.of(next);
    }

    synchronized Optional<LeaseRecord> record() {
        return lease.map(Versioned::record);
    }
}
