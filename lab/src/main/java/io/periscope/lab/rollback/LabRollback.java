package io.periscope.lab.rollback;

import io.periscope.dataplane.command.ProcessCommandRunner;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a lab command undoes when it does not finish: {@code lab up} removes the half-built lab,
 * {@code lab failover} heals the node it failed. It runs once, whichever comes first: the JVM's
 * shutdown hook (Ctrl-C, SIGTERM: the command line's signal handler exits the JVM, which runs the
 * hooks while the command's own thread is still somewhere in its work), or the command itself when a
 * step failed.
 *
 * <p>The command's steps run under a lock that the undo takes too, so it never undoes half of a step
 * (deleting namespaces while a batch still creates them, or writing a state file after the undo
 * removed it); the undo interrupts the step that holds the lock, so a step waiting for something
 * (the supervisor reporting ready) gives up at once. After the undo began no further step begins.
 * {@link #finish} is the last step: once it returned, the command's work stands and the undo does
 * nothing.
 *
 * <p>The undo itself always runs on a thread of its own: after a signal, the command line refuses to
 * start programs from the command's thread (they would outlive the JVM), and the undo needs programs.
 */
public final class LabRollback implements AutoCloseable {

    /** A step still running after it was interrupted gets this long before the undo goes ahead anyway. */
    private static final long WAIT_FOR_STEP_SECONDS = 20;
    /** Removing a few thousand namespaces takes about a minute; a second caller waits that long. */
    private static final long WAIT_FOR_UNDO_SECONDS = 180;
    /** A signal also kills the undo's programs (they share the terminal's process group): each attempt can be repeated. */
    private static final int ATTEMPTS = 3;

    public static final String INTERRUPTED = "interrupted";
    public static final String FAILED = "failed";

    /** The undo, told why it runs: {@link #INTERRUPTED} or {@link #FAILED}, for the line that says what it does. */
    @FunctionalInterface
    public interface Undo {
        void run(String why);
    }

    private final Undo undo;
    private final Consumer<String> report;
    private final String ifUndoFails;
    private final ReentrantLock stepLock = new ReentrantLock();
    private final CountDownLatch undone = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean begun;
    private volatile boolean finished;
    private volatile Thread stepThread;
    private volatile boolean armed;

    private LabRollback(Undo undo, Consumer<String> report, String ifUndoFails) {
        this.undo = undo;
        this.report = report;
        this.ifUndoFails = ifUndoFails;
        this.hook = Thread.ofPlatform().name("lab-rollback").unstarted(() -> undoOnce(INTERRUPTED));
    }

    /**
     * Arms the undo: from now on an exit of the JVM runs it unless {@link #finish} came first.
     *
     * @param report      where a failed undo says so (standard error)
     * @param ifUndoFails what a person does then, e.g. run {@code lab down FILE}
     */
    public static LabRollback arm(Undo undo, Consumer<String> report, String ifUndoFails) {
        LabRollback rollback = new LabRollback(undo, report, ifUndoFails);
        Runtime.getRuntime().addShutdownHook(rollback.hook);
        rollback.armed = true;
        return rollback;
    }

    /** Runs one step of the command, unless the undo has begun. @throws IllegalStateException when it has */
    public <T> T step(Supplier<T> work) {
        stepLock.lock();
        try {
            if (begun) {
                throw new RolledBack();
            }
            stepThread = Thread.currentThread();
            try {
                return work.get();
            } finally {
                stepThread = null;
            }
        } finally {
            stepLock.unlock();
        }
    }

    /** The same, for a step that returns nothing. */
    public void run(Runnable work) {
        step(() -> {
            work.run();
            return null;
        });
    }

    /** The last step: once it ran, the command's work stands, and neither a signal nor a failure undoes it. */
    public void finish(Runnable last) {
        run(() -> {
            last.run();
            finished = true;
        });
        disarm();
    }

    /** Whether the undo has begun (or is done). */
    public boolean begun() {
        return begun;
    }

    /**
     * For a command whose step failed: undoes now, on a thread of its own, and returns when done. A
     * finished command is left alone; an undo the shutdown hook began is waited for.
     */
    public void undoNow() {
        if (finished) {
            return;
        }
        // A step fails when a signal killed its program, possibly before the shutdown hook began: that is an interruption too.
        String why = ProcessCommandRunner.stopped(Thread.currentThread()) ? INTERRUPTED : FAILED;
        Thread thread = Thread.ofPlatform().name("lab-rollback-now").start(() -> undoOnce(why));
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                // the hook interrupts the step's thread: this thread still waits for the undo to end
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        disarm();
    }

    /**
     * The command ended: the hook goes once its work stands ({@link #finish}) or was undone. Otherwise it
     * stays: a {@code try (rollback)} with a {@code catch} that calls {@link #undoNow} closes the rollback
     * before the catch runs, and a signal in between would find no hook, so the JVM would halt in the
     * middle of the undo the catch started (a failover interrupted while a counter was read left its node
     * failed and one of its links down).
     */
    @Override
    public void close() {
        if (finished || undone.getCount() == 0) {
            disarm();
        }
    }

    /** Whether an exit of the JVM still runs (or waits for) the undo. */
    boolean armed() {
        return armed;
    }

    private void disarm() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
            armed = false;
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook runs, and finds the work finished or undoes it
        }
    }

    /**
     * A second caller waits for the first to finish: the JVM halts once its shutdown hooks returned, and
     * a hook that returned at once while the command's own undo was still running would cut it short.
     */
    private void undoOnce(String why) {
        synchronized (this) {
            if (begun || finished) {
                awaitUndone();
                return;
            }
            begun = true;
        }
        try {
            Thread holder = stepThread;
            if (holder != null && holder != Thread.currentThread()) {
                holder.interrupt();
            }
            boolean locked = false;
            try {
                locked = stepLock.tryLock(WAIT_FOR_STEP_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                if (finished) {
                    return;
                }
                attempt(why);
            } finally {
                if (locked) {
                    stepLock.unlock();
                }
            }
        } finally {
            undone.countDown();
        }
    }

    private void attempt(String why) {
        for (int attempt = 1; ; attempt++) {
            try {
                undo.run(why);
                return;
            } catch (RuntimeException e) {
                if (attempt == ATTEMPTS) {
                    report.accept("could not undo it (" + ATTEMPTS + " attempts): " + e.getMessage() + "\n" + ifUndoFails);
                    return;
                }
            }
        }
    }

    private void awaitUndone() {
        try {
            undone.await(WAIT_FOR_UNDO_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A step refused because the command is being undone: the consequence of a signal or a failure, not a new failure. */
    public static final class RolledBack extends IllegalStateException {
        RolledBack() {
            super("the command is being undone; no further step runs");
        }
    }
}
