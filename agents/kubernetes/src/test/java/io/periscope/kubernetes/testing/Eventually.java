package io.periscope.kubernetes.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for controllers that act asynchronously; fails with what was being waited for. */
public final class Eventually {

    private Eventually() {
    }

    public static void await(String what, BooleanSupplier condition) {
        await(what, Duration.ofSeconds(20), condition);
    }

    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        AssertionError last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
                last = null;
            } catch (AssertionError | RuntimeException e) {
                last = e instanceof AssertionError a ? a : new AssertionError(e);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what);
            }
        }
        AssertionError failure = new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
        if (last != null) {
            failure.initCause(last);
        }
        throw failure;
    }

    /** Runs the assertion until it passes or the time is up; the last failure is what is reported. */
    public static void assertThatEventually(String what, Runnable assertion) {
        await(what, () -> {
            assertion.run();
            return true;
        });
    }
}
