package io.periscope.lab.supervisor;

import java.time.Duration;

/**
 * When a supervisor loop runs its next pass: at once when poked (something it watches changed),
 * otherwise once a period has passed (a resync, which repairs what nobody announced). Starts
 * poked, so the first pass runs at once.
 */
final class Wakeup {

    private final Object lock = new Object();
    private final Duration period;
    private boolean poked = true;

    Wakeup(Duration period) {
        this.period = period;
    }

    /** Makes the loop's next {@link #await()} return at once. */
    void poke() {
        synchronized (lock) {
            poked = true;
            lock.notifyAll();
        }
    }

    /**
     * Waits until poked or the period has passed, and clears the poke.
     *
     * @return false when the thread was interrupted (the loop should end)
     */
    boolean await() {
        synchronized (lock) {
            if (!poked) {
                try {
                    lock.wait(period.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            poked = false;
            return true;
        }
    }
}
