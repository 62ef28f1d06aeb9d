package io.periscope.kubernetes.testing;

import io.periscope.dataplane.ovn.NbChange;
import io.periscope.dataplane.ovn.Northbound;
import io.periscope.dataplane.ovn.NorthboundState;
import io.periscope.dataplane.ovn.RecordingNorthbound;

import java.util.List;

/**
 * A {@link RecordingNorthbound} that a syncer's thread and the test's thread (standing for
 * OVN-Kubernetes) use at once, as both use the one real database; it counts reads, so a test can
 * tell that the database was never looked at.
 */
public final class SharedNorthbound implements Northbound {

    private final RecordingNorthbound database = new RecordingNorthbound(List.of());
    private int reads;

    @Override
    public synchronized NorthboundState read() {
        reads++;
        return database.read();
    }

    @Override
    public synchronized void apply(List<NbChange> changes, NorthboundState readBefore) {
        database.apply(changes, readBefore);
    }

    public synchronized int reads() {
        return reads;
    }

    /**
     * The transactions that changed something. The programmer hands the database an empty one when
     * it already matches (ovn-nbctl is not even run then), so those are not counted.
     */
    public synchronized List<List<NbChange>> writes() {
        return database.transactions().stream().filter(t -> !t.isEmpty()).toList();
    }

    /** The rows as they are, without counting as a read of the syncer's. */
    public synchronized NorthboundState rows() {
        return database.read();
    }
}
