package io.periscope.kubernetes.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Runs a level-driven pass on one platform thread whenever something changed, and at least every
 * {@code resync}. Signals that arrive during a pass coalesce into one more pass: a pass looks at
 * everything, so how many events there were does not matter. A pass that throws is retried after
 * {@code retry}; the loop itself never dies of it.
 */
final class LevelLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LevelLoop.class);

    private final Runnable pass;
    private final Duration resync;
    private final Duration retry;
    private final Thread thread;
    private boolean signalled = true;
    private boolean closed;
    private long passes;

    LevelLoop(String name, Runnable pass, Duration resync, Duration retry) {
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
                long deadline = System.nanoTime() + resync.toNanos();
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
                pass.run();
                synchronized (this) {
                    passes++;
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
