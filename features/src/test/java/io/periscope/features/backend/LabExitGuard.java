package io.periscope.features.backend;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The lock a lab driver builds, changes and takes down its lab under, and the JVM shutdown hook that
 * takes the lab down when the run ends in the middle of a scenario (Ctrl-C, SIGTERM, Surefire's
 * timeout).
 *
 * <p>Why not {@code synchronized} methods and a hook that calls {@code down()}: the hook runs while the
 * scenario's thread is still inside {@code up}, say waiting for the agents to converge, with the
 * driver's monitor held. A hook waiting for that monitor never gets it, and the JVM never exits (seen:
 * a SIGTERM while the Kubernetes agents started left a JVM hanging and its namespaces behind). Here the
 * hook first refuses every later build ({@link #building}), then interrupts the thread holding the lock
 * so that its wait ends, then takes the lock and the lab down. A thread that does not let go within
 * {@link #PATIENCE} is waited for no longer: the lab goes down under it, since a lab left behind is
 * worse than a scenario that fails on a vanished namespace while the JVM exits anyway.
 */
public final class LabExitGuard {

    /** How long the hook waits for the interrupted scenario to let go; a command it waits on ends on the interrupt, well within this. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    private final ReentrantLock lock = new ReentrantLock();
    private final Runnable takeDown;
    private final Consumer<String> report;
    private final Duration patience;
    private volatile boolean exiting;
    private volatile Thread holder;

    LabExitGuard(Runnable takeDown, Consumer<String> report, Duration patience) {
        this.takeDown = takeDown;
        this.report = report;
        this.patience = patience;
    }

    /**
     * A guard whose shutdown hook runs {@code takeDown} (the driver's down, without taking the lock
     * itself: the guard holds it then).
     */
    public static LabExitGuard armed(String driver, Runnable takeDown) {
        LabExitGuard guard = new LabExitGuard(takeDown, line -> System.err.println("[" + driver + "] " + line), PATIENCE);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name(driver + "-down-on-exit").unstarted(guard::exit));
        return guard;
    }

    /** Builds or changes the lab under the lock; refused once the JVM has begun to exit, so nothing is built that no one takes down. */
    public <T> T building(Supplier<T> work) {
        return locked(() -> {
            if (exiting) {
                throw new IllegalStateException("the JVM is exiting and its lab is being taken down: no lab is built or changed any more");
            }
            return work.get();
        });
    }

    /** Anything else a driver does with its lab (reading, healing, taking down), under the lock; this runs while exiting too. */
    public <T> T locked(Supplier<T> work) {
        lock.lock();
        holder = Thread.currentThread();
        try {
            return work.get();
        } finally {
            if (lock.getHoldCount() == 1) {
                holder = null;
            }
            lock.unlock();
        }
    }

    /** The same, for work that returns nothing. */
    public void locked(Runnable work) {
        locked(() -> {
            work.run();
            return null;
        });
    }

    /** Whether the JVM has begun to exit and the hook has taken over (or is taking over) the lab. */
    public boolean exiting() {
        return exiting;
    }

    /** The shutdown hook's work; package-private so that a test can run it without exiting its JVM. */
    void exit() {
        exiting = true;
        Thread busy = holder;
        if (busy != null && busy != Thread.currentThread()) {
            busy.interrupt();
        }
        boolean held = false;
        try {
            held = lock.tryLock(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (!held) {
                report.accept("the scenario's thread kept the lab " + patience.toMillis() + " ms after the JVM began to exit; taking the lab down under it");
            }
            takeDown.run();
        } finally {
            if (held) {
                lock.unlock();
            }
        }
    }
}
