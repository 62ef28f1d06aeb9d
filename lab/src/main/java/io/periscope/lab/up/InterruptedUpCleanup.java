package io.periscope.lab.up;

import io.periscope.lab.down.LabTeardown;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Removes what an unfinished {@code lab up} created: run by the shutdown hook on Ctrl-C, or by
 * {@code up} itself when a phase failed. Phases run under a lock that the cleanup takes too, so it
 * never deletes namespaces while a batch is still creating them; after it started, no further
 * phase begins.
 */
final class InterruptedUpCleanup {

    /** A phase still running gets this long to finish before the cleanup goes ahead anyway. */
    private static final long WAIT_FOR_PHASE_SECONDS = 20;
    /** Removing a few thousand namespaces takes about a minute; a second caller waits that long. */
    private static final long WAIT_FOR_REMOVAL_SECONDS = 120;

    private final CommandRunner runner;
    private final LabStateFile stateFile;
    private final LabState state;
    private final ReentrantLock phaseLock = new ReentrantLock();
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);

    InterruptedUpCleanup(CommandRunner runner, LabStateFile stateFile, LabState state) {
        this.runner = runner;
        this.stateFile = stateFile;
        this.state = state;
    }

    <T> T whileNotInterrupted(Supplier<T> phase) {
        phaseLock.lock();
        try {
            if (started.get()) {
                throw new IllegalStateException("lab up was interrupted; what it created is being removed");
            }
            return phase.get();
        } finally {
            phaseLock.unlock();
        }
    }

    boolean started() {
        return started.get();
    }

    /**
     * Removes what was created; a second caller waits for the first to finish, because the JVM
     * halts once its shutdown hook returns: a hook that returned at once while {@code up}'s own
     * thread was still removing namespaces would cut that removal short.
     */
    void run() {
        if (!started.compareAndSet(false, true)) {
            try {
                finished.await(WAIT_FOR_REMOVAL_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        try {
            removeWhatWasCreated();
        } finally {
            finished.countDown();
        }
    }

    private void removeWhatWasCreated() {
        boolean locked = false;
        try {
            locked = phaseLock.tryLock(WAIT_FOR_PHASE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            System.err.println("lab up interrupted: removing " + state.namespaces().size() + " namespaces of " + state.topology());
            // The file, not the state first written: it also lists the wireguard-go daemons started since.
            new LabTeardown(runner, stateFile).remove(stateFile.read(state.hash()).orElse(state));
        } finally {
            if (locked) {
                phaseLock.unlock();
            }
        }
    }
}
