package io.periscope.dataplane.election;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One candidate's view of one lease: client-go's leader election, the logic behind upstream's
 * gateway lease, as a state machine that is told the time and the store at every step. The same
 * logic runs over a Kubernetes Lease and over the lab's lease files; it keeps no thread and reads
 * no clock, so tests drive it with a clock of their own.
 *
 * <p>At each {@link #attempt} (every retry period) the candidate reads the lease and:
 * <ul>
 *   <li>creates it when there is none, and so leads;</li>
 *   <li>renews it when it holds it;</li>
 *   <li>takes it when it is released, or when it has not changed for a whole lease duration as this
 *       candidate observed it. Expiry is judged by when this candidate saw the lease last change
 *       on its own clock, never by the times written in it: candidates' clocks need not agree;</li>
 *   <li>otherwise waits.</li>
 * </ul>
 * A leader that has not renewed for its renew deadline (a store it cannot reach, writes that keep
 * losing) stops leading at once, a while before the others may take the lease over.
 */
public final class LeaderElection {

    private final String identity;
    private final LeaseTimings timings;
    private Optional<LeaseStore.Versioned> observed = Optional.empty();
    private Instant observedAt = Instant.EPOCH;
    private Instant renewedAt = Instant.EPOCH;
    private boolean leading;

    public LeaderElection(String identity, LeaseTimings timings) {
        if (identity.isBlank()) {
            throw new IllegalArgumentException("a candidate needs an identity");
        }
        this.identity = identity;
        this.timings = timings;
    }

    public String identity() {
        return identity;
    }

    public LeaseTimings timings() {
        return timings;
    }

    /** Whether this candidate leads after its last attempt. */
    public boolean leading() {
        return leading;
    }

    /** The holder as last observed; empty before the first read, or when the lease is released. */
    public Optional<String> holder() {
        return observed.map(v -> v.record().holder()).filter(h -> !h.isEmpty());
    }

    /** How long until the next attempt should be made. */
    public Duration retryPeriod() {
        return timings.retryPeriod();
    }

    /**
     * Reads the lease and creates, renews or takes it when it may.
     *
     * @return whether this candidate leads afterwards
     */
    public boolean attempt(Instant now, LeaseStore store) {
        Optional<LeaseStore.Versioned> current;
        try {
            current = store.read();
        } catch (LeaseStore.Unreachable e) {
            return missedRenewal(now);
        }
        if (current.isEmpty()) {
            LeaseRecord created = new LeaseRecord(identity, now, now, timings.leaseDuration(), 0);
            return wrote(now, store, Optional.empty(), created);
        }
        LeaseStore.Versioned lease = current.get();
        if (observed.isEmpty() || !observed.get().version().equals(lease.version())) {
            observed = current;
            observedAt = now;
        }
        LeaseRecord record = lease.record();
        if (record.held() && !record.heldBy(identity) && observedAt.plus(timings.leaseDuration()).isAfter(now)) {
            // Someone else holds a lease that has changed within a lease duration: theirs.
            leading = false;
            return false;
        }
        LeaseRecord next = record.heldBy(identity)
                ? new LeaseRecord(identity, record.acquired(), now, timings.leaseDuration(), record.transitions())
                : new LeaseRecord(identity, now, now, timings.leaseDuration(), record.transitions() + 1);
        return wrote(now, store, Optional.of(lease.version()), next);
    }

    /**
     * Gives the lease up, so that a standby takes over at its next retry instead of after a lease
     * duration; does nothing unless this candidate holds it.
     */
    public void release(Instant now, LeaseStore store) {
        boolean held = leading && observed.map(v -> v.record().heldBy(identity)).orElse(false);
        leading = false;
        if (!held) {
            return;
        }
        LeaseRecord record = observed.get().record();
        LeaseRecord released = new LeaseRecord("", record.acquired(), now, Duration.ofSeconds(1), record.transitions());
        try {
            store.write(Optional.of(observed.get().version()), released)
                    .ifPresent(version -> observed = Optional.of(new LeaseStore.Versioned(released, version)));
        } catch (LeaseStore.Unreachable e) {
            // Then the lease runs out by itself.
        }
    }

    private boolean wrote(Instant now, LeaseStore store, Optional<String> expected, LeaseRecord next) {
        Optional<String> version;
        try {
            version = store.write(expected, next);
        } catch (LeaseStore.Unreachable e) {
            return missedRenewal(now);
        }
        if (version.isEmpty()) {
            // Another candidate wrote first: read again at the next attempt.
            return missedRenewal(now);
        }
        observed = Optional.of(new LeaseStore.Versioned(next, version.get()));
        observedAt = now;
        renewedAt = now;
        leading = true;
        return true;
    }

    private boolean missedRenewal(Instant now) {
        if (leading && !renewedAt.plus(timings.renewDeadline()).isAfter(now)) {
            leading = false;
        }
        return leading;
    }
}
