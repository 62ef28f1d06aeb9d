package io.periscope.dataplane.election;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Candidates for one lease, driven through simulated time in 10 ms ticks; each attempts every retry
 * period from its own starting offset, as candidates on different nodes do.
 */
class LeaderElectionHandsTheLeaseOverOnlyWhenItRunsOut {

    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(250));
    private static final Duration TICK = Duration.ofMillis(10);

    private final SteppingClock clock = new SteppingClock(Instant.parse("2026-11-26T00:00:00Z"));
    private final MemoryLeaseStore store = new MemoryLeaseStore();
    private final List<String> events = new ArrayList<>();
    private final Map<LeaseCandidate, Instant> due = new LinkedHashMap<>();

    private LeaseCandidate candidate(String identity, Duration offset) {
        LeaseCandidate candidate = new LeaseCandidate("gateway", new LeaderElection(identity, TIMINGS), store, clock,
                new LeaseCandidate.Leadership() {
                    @Override
                    public void started() {
                        events.add(identity + " started at " + elapsed());
                    }

                    @Override
                    public void stopped() {
                        events.add(identity + " stopped at " + elapsed());
                    }
                }, line -> { });
        due.put(candidate, clock.instant().plus(offset));
        return candidate;
    }

    private final Instant start = clock.instant();

    private long elapsed() {
        return Duration.between(start, clock.instant()).toMillis();
    }

    /** Runs every candidate still standing until {@code millis} from the start. */
    private void runUntil(long millis) {
        while (elapsed() < millis) {
            for (Map.Entry<LeaseCandidate, Instant> entry : due.entrySet()) {
                if (!entry.getValue().isAfter(clock.instant())) {
                    entry.setValue(clock.instant().plus(entry.getKey().step()));
                }
            }
            clock.advance(TICK);
        }
    }

    private void stopStanding(LeaseCandidate candidate, boolean release) {
        due.remove(candidate);
        if (release) {
            candidate.close();
        } else {
            candidate.abandon();
        }
    }

    @Test
    void theFirstCandidateCreatesTheLeaseAndTheOthersWaitWhileItRenews() {
        LeaseCandidate gw1 = candidate("gw-1", Duration.ZERO);
        LeaseCandidate gw2 = candidate("gw-2", Duration.ofMillis(100));

        runUntil(30_000);

        assertThat(gw1.leading()).isTrue();
        assertThat(gw2.leading()).isFalse();
        assertThat(gw2.holder()).contains("gw-1");
        assertThat(events).containsExactly("gw-1 started at 0");
        LeaseRecord record = store.record().orElseThrow();
        assertThat(record.holder()).isEqualTo("gw-1");
        assertThat(record.transitions()).isZero();
        assertThat(Duration.between(record.renewed(), clock.instant())).isLessThanOrEqualTo(TIMINGS.retryPeriod());
    }

    @Test
    void aLeaderThatDiesWithoutReleasingIsReplacedOnlyOnceTheLeaseRanOutAsTheStandbySawIt() {
        LeaseCandidate gw1 = candidate("gw-1", Duration.ZERO);
        LeaseCandidate gw2 = candidate("gw-2", Duration.ofMillis(130));
        runUntil(5_000);
        Instant lastRenewal = store.record().orElseThrow().renewed();

        stopStanding(gw1, false);
        long diedAt = elapsed();
        runUntil(10_000);

        assertThat(gw2.leading()).isTrue();
        String takeover = events.stream().filter(e -> e.startsWith("gw-2 started")).findFirst().orElseThrow();
        long takenAt = Long.parseLong(takeover.substring(takeover.lastIndexOf(' ') + 1));
        long sinceRenewal = takenAt - Duration.between(start, lastRenewal).toMillis();
        assertThat(sinceRenewal).as("never before a whole lease duration after the last renewal")
                .isGreaterThanOrEqualTo(TIMINGS.leaseDuration().toMillis())
                .isLessThanOrEqualTo(TIMINGS.leaseDuration().plus(TIMINGS.retryPeriod().multipliedBy(2)).toMillis());
        assertThat(takenAt - diedAt).isBetween(TIMINGS.fastestTakeover().toMillis(), TIMINGS.slowestTakeover().toMillis());
        LeaseRecord record = store.record().orElseThrow();
        assertThat(record.holder()).isEqualTo("gw-2");
        assertThat(record.transitions()).isEqualTo(1);
        assertThat(record.acquired()).isEqualTo(start.plusMillis(takenAt));
    }

    @Test
    void aReleasedLeaseIsTakenAtTheStandbysNextRetry() {
        LeaseCandidate gw1 = candidate("gw-1", Duration.ZERO);
        LeaseCandidate gw2 = candidate("gw-2", Duration.ofMillis(130));
        runUntil(5_000);

        stopStanding(gw1, true);
        long releasedAt = elapsed();
        runUntil(5_000 + TIMINGS.retryPeriod().toMillis() + 10);

        assertThat(gw2.leading()).isTrue();
        assertThat(events).containsExactly("gw-1 started at 0", "gw-1 stopped at " + releasedAt,
                events.getLast());
        assertThat(events.getLast()).startsWith("gw-2 started at ");
    }

    @Test
    void aLeaderCutOffFromTheStoreStepsDownBeforeAnyoneMayTakeOver() {
        LeaseCandidate gw1 = candidate("gw-1", Duration.ZERO);
        LeaseCandidate gw2 = candidate("gw-2", Duration.ofMillis(130));
        runUntil(5_000);

        // gw-1 alone loses the store: a store that answers gw-2 but not gw-1.
        LeaseStore partitioned = new LeaseStore() {
            @Override
            public java.util.Optional<Versioned> read() {
                throw new Unreachable("partitioned");
            }

            @Override
            public java.util.Optional<String> write(java.util.Optional<String> expected, LeaseRecord record) {
                throw new Unreachable("partitioned");
            }
        };
        LeaderElection cutOff = new LeaderElection("gw-1", TIMINGS);
        assertThat(cutOff.attempt(clock.instant(), store)).isTrue();
        due.remove(gw1);
        gw1.abandon();
        events.clear();
        long cutAt = elapsed();
        long steppedDownAt = -1;
        while (elapsed() < 10_000) {
            if (!cutOff.attempt(clock.instant(), partitioned) && steppedDownAt < 0) {
                steppedDownAt = elapsed();
            }
            for (int i = 0; i < 25; i++) {
                runUntil(elapsed() + 10);
            }
        }

        assertThat(steppedDownAt - cutAt).isBetween(TIMINGS.renewDeadline().toMillis(), TIMINGS.renewDeadline().plus(TIMINGS.retryPeriod()).toMillis());
        String takeover = events.stream().filter(e -> e.startsWith("gw-2 started")).findFirst().orElseThrow();
        long takenAt = Long.parseLong(takeover.substring(takeover.lastIndexOf(' ') + 1));
        assertThat(takenAt).as("the old leader stopped before the new one started").isGreaterThan(steppedDownAt);
        assertThat(gw2.leading()).isTrue();
    }

    @Test
    void aFormerLeaderThatComesBackStaysAStandby() {
        LeaseCandidate gw1 = candidate("gw-1", Duration.ZERO);
        LeaseCandidate gw2 = candidate("gw-2", Duration.ofMillis(130));
        runUntil(3_000);
        stopStanding(gw1, false);
        runUntil(8_000);
        assertThat(gw2.leading()).isTrue();

        LeaseCandidate back = candidate("gw-1", Duration.ZERO);
        runUntil(20_000);

        assertThat(back.leading()).isFalse();
        assertThat(back.holder()).contains("gw-2");
        assertThat(gw2.leading()).isTrue();
        assertThat(store.record().orElseThrow().transitions()).isEqualTo(1);
    }

    @Test
    void twoStandbysReachingAnExpiredLeaseAtOnceLeaveOneLeader() {
        LeaseCandidate gw1 = candidate("gw-1", Duration.ZERO);
        LeaseCandidate gw2 = candidate("gw-2", Duration.ofMillis(100));
        LeaseCandidate gw3 = candidate("gw-3", Duration.ofMillis(100));
        runUntil(3_000);
        stopStanding(gw1, false);

        for (long t = 3_000; t < 12_000; t += 10) {
            runUntil(t + 10);
            assertThat(gw2.leading() && gw3.leading()).as("two leaders at " + elapsed() + " ms").isFalse();
        }
        assertThat(gw2.leading() || gw3.leading()).isTrue();
        assertThat(store.record().orElseThrow().transitions()).isEqualTo(1);
    }

    @Test
    void aWriteThatLosesTheRaceLeadsNobody() {
        LeaderElection gw2 = new LeaderElection("gw-2", TIMINGS);
        LeaderElection gw3 = new LeaderElection("gw-3", TIMINGS);
        // Both read an empty store; gw-3 writes first, gw-2's create then finds the lease there.
        LeaseStore racing = new LeaseStore() {
            @Override
            public java.util.Optional<Versioned> read() {
                return java.util.Optional.empty();
            }

            @Override
            public java.util.Optional<String> write(java.util.Optional<String> expected, LeaseRecord record) {
                return store.write(expected, record);
            }
        };
        assertThat(gw3.attempt(clock.instant(), racing)).isTrue();
        assertThat(gw2.attempt(clock.instant(), racing)).isFalse();
        assertThat(store.record().orElseThrow().holder()).isEqualTo("gw-3");
    }
}
