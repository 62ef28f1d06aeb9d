package io.periscope.features.kubernetes;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for controllers, which act asynchronously; fails with what was awaited and the last failure seen. */
public final class Eventually {

    public static final Duration TIMEOUT = Duration.ofSeconds(20);

    private Eventually() {
    }

    public static void await(String what, BooleanSupplier condition) {
        check(what, () -> {
            if (!condition.getAsBoolean()) {
                throw new AssertionError("not yet: " + what);
            }
        });
    }

    /** Runs {@code assertion} until it passes; after {@link #TIMEOUT} its last failure is reported. */
    public static void check(String what, Runnable assertion) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError | RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    AssertionError failure = new AssertionError("after " + TIMEOUT.toSeconds() + " s, " + what + ": " + e.getMessage());
                    failure.initCause(e);
                    throw failure;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + what);
            }
        }
    }
}
