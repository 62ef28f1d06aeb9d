package io.periscope.dataplane.election;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link LeaderElection} kept going: an attempt every retry period on a thread of its own, and
 * its {@link Leadership} told when leading starts and stops. Unlike fabric8's elector it never
 * ends by itself: a leader that lost the lease (say, to a partition) stands again.
 *
 * <p>{@link #step()} is one attempt with its callbacks, for tests that drive time themselves.
 * {@link #close()} releases the lease (a standby takes over within a retry period), as an agent shut
 * down in order does; {@link #abandon()} stops without releasing it, as a crashed agent does, so the
 * lease must run out first.
 */
public final class LeaseCandidate implements AutoCloseable {

    /** What to do when leadership starts and stops; called on the candidate's thread, alternately, and must return quickly. */
    public interface Leadership {
        void started();

        void stopped();

        /** For a level-driven agent: winning or losing the lease is one more reason to look again. */
        static Leadership signalling(Runnable signal) {
            return new Leadership() {
                @Override
                public void started() {
                    signal.run();
                }

                @Override
                public void stopped() {
                    signal.run();
                }
            };
        }
    }

    private final String name;
    private final LeaderElection election;
    private final LeaseStore store;
    private final Clock clock;
    private final Leadership leadership;
    private final Consumer<String> log;
    private final Object wake = new Object();
    private volatile boolean leading;
    private volatile Optional<String> holder = Optional.empty();
    private volatile boolean stopped;
    private Thread thread;

    /**
     * @param name what the lease is called, for the thread's name and the log
     * @param log  one line when leadership starts or stops
     */
    public LeaseCandidate(String name, LeaderElection election, LeaseStore store, Clock clock, Leadership leadership, Consumer<String> log) {
        this.name = name;
        this.election = election;
        this.store = store;
        this.clock = clock;
        this.leadership = leadership;
        this.log = log;
    }

    public String identity() {
        return election.identity();
    }

    public boolean leading() {
        return leading;
    }

    /** The holder as last observed. */
    public Optional<String> holder() {
        return holder;
    }

    /** One attempt, and the callbacks if leadership changed. @return how long until the next */
    public synchronized Duration step() {
        if (stopped) {
            return election.retryPeriod();
        }
        boolean now = election.attempt(clock.instant(), store);
        holder = election.holder();
        changed(now);
        return election.retryPeriod();
    }

    /** Starts the attempts on a daemon thread, the first at once; does nothing when already started. */
    public synchronized LeaseCandidate start() {
        if (thread == null && !stopped) {
            thread = Thread.ofPlatform().daemon().name("lease-" + name + "-" + identity()).start(this::loop);
        }
        return this;
    }

    private void loop() {
        while (!stopped) {
            Duration next = step();
            synchronized (wake) {
                if (stopped) {
                    break;
                }
                try {
                    wake.wait(Math.max(1, next.toMillis()));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void changed(boolean now) {
        if (now == leading) {
            return;
        }
        leading = now;
        log.accept(identity() + (now ? " leads " : " no longer leads ") + name);
        if (now) {
            leadership.started();
        } else {
            leadership.stopped();
        }
    }

    /** Stops standing and releases the lease if it holds it (the leader is told it stopped leading). */
    @Override
    public void close() {
        stop(true);
    }

    /** Stops standing without releasing the lease: the others must wait for it to run out, as after a crash. */
    public void abandon() {
        stop(false);
    }

    private void stop(boolean release) {
        Thread running;
        synchronized (wake) {
            stopped = true;
            wake.notifyAll();
        }
        synchronized (this) {
            running = thread;
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (release) {
                election.release(clock.instant(), store);
            }
            holder = election.holder();
            changed(false);
        }
    }
}
