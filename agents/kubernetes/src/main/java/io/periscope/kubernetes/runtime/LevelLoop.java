package io.periscope.kubernetes.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs a level-driven pass on one platform thread whenever something changed, and at least every
 * {@code resync}. Signals that arrive during a pass coalesce into one more pass: a pass looks at
 * everything, so how many events there were does not matter. A pass that throws is retried after
 * {@code retry}; the loop itself never dies of it. A pass may also decline to run (its caches have
 * not shown its predecessor's writes yet, {@link UnseenWrites}): it is not counted, and the loop
 * looks again on the next signal or after the time the pass gave, whichever comes first.
 */
final class LevelLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LevelLoop.class);

    /** Runs a pass; returns empty when it ran, else how soon to look again. */
    private final Supplier<Optional<Duration>> pass;
    private final Duration resync;
    private final Duration retry;
    private final Thread thread;
    private boolean signalled = true;
    private boolean closed;
    private long passes;
    /** Set by a pass that declined to run: the loop waits no longer than this for a signal. */
    private Duration lookAgainIn;

    LevelLoop(String name, Supplier<Optional<Duration>> pass, Duration resync, Duration retry) {
        this.pass = pass;
        this.resync = resync;
        this.retry = retry;
        this.thread = Thread.ofPlatform().name(name).daemon().unstarted(this::loop);
    }

    LevelLoop start() {
        thread.start();
        return this;
    }

    synchronized void signal() {
        signalled = true;
        notifyAll();
    }

    /** How many passes completed without throwing; for tests that wait for the loop to settle. */
    synchronized long passes() {
        return passes;
    }

    private void loop() {
        while (true) {
            synchronized (this) {
                Duration wait = lookAgainIn == null || lookAgainIn.compareTo(resync) > 0 ? resync : lookAgainIn;
                lookAgainIn = null;
                long deadline = System.nanoTime() + wait.toNanos();
                while (!signalled && !closed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    try {
                        wait(Math.max(1, left / 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                signalled = false;
            }
            try {
                Optional<Duration> declined = pass.get();
                synchronized (this) {
                    if (declined.isPresent()) {
                        lookAgainIn = declined.get();
                    } else {
                        passes++;
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("{}: pass failed, retrying in {} ms: {}", thread.getName(), retry.toMillis(), e.toString(), e);
                synchronized (this) {
                    try {
                        if (!closed) {
                            wait(retry.toMillis());
                        }
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                    signalled = true;
                }
            }
        }
    }

    /** Stops the loop and waits for a running pass to finish, so nothing it does outlives the call. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
