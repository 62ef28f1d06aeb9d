package io.periscope.dataplane.election;

import java.time.Duration;
import java.time.Instant;

/**
 * What a lease says, as a Kubernetes {@code coordination.k8s.io/v1} Lease says it.
 *
 * @param holder      who holds it; empty once released
 * @param acquired    when the holder took it
 * @param renewed     when the holder last renewed it
 * @param duration    how long it lasts after a renewal, as its holder sees it
 * @param transitions how many times it changed hands
 */
public record LeaseRecord(String holder, Instant acquired, Instant renewed, Duration duration, int transitions) {

    public LeaseRecord {
        holder = holder == null ? "" : holder;
    }

    public boolean held() {
        return !holder.isEmpty();
    }

    public boolean heldBy(String identity) {
        return holder.equals(identity);
    }
}
