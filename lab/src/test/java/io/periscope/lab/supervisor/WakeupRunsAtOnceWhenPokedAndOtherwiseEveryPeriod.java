package io.periscope.lab.supervisor;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** A loop's wake-up: with an hour's period, only a poke can make these return within the timeout. */
class WakeupRunsAtOnceWhenPokedAndOtherwiseEveryPeriod {

    private static final Duration AN_HOUR = Duration.ofHours(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void theFirstPassRunsAtOnce() {
        Wakeup wakeup = new Wakeup(AN_HOUR);

        assertThat(assertTimeoutPreemptively(TIMEOUT, wakeup::await)).isTrue();
    }

    @Test
    void aPokeFromAnotherThreadEndsTheWait() throws InterruptedException {
        Wakeup wakeup = new Wakeup(AN_HOUR);
        wakeup.await();
        Thread poker = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            wakeup.poke();
        });

        assertThat(assertTimeoutPreemptively(TIMEOUT, wakeup::await)).isTrue();
        poker.join();
    }

    @Test
    void aPokeIsTakenOnceSoTheNextWaitLastsThePeriod() {
        Wakeup wakeup = new Wakeup(Duration.ofMillis(300));
        wakeup.await();
        wakeup.poke();
        wakeup.poke();
        wakeup.await();

        long started = System.nanoTime();
        assertThat(assertTimeoutPreemptively(TIMEOUT, wakeup::await)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited out the period: two pokes are one").isGreaterThanOrEqualTo(Duration.ofMillis(250));
    }

    @Test
    void anInterruptedWaitSaysTheLoopShouldEnd() {
        Wakeup wakeup = new Wakeup(AN_HOUR);
        wakeup.await();
        AtomicBoolean interruptedAfter = new AtomicBoolean();

        boolean result = assertTimeoutPreemptively(TIMEOUT, () -> {
            Thread.currentThread().interrupt();
            boolean carryOn = wakeup.await();
            interruptedAfter.set(Thread.interrupted());
            return carryOn;
        });

        assertThat(result).isFalse();
        assertThat(interruptedAfter).as("the interrupt is kept for the loop's thread").isTrue();
    }
}
