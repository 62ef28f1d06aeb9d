package io.periscope.kubernetes.runtime;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.periscope.kubernetes.testing.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LevelLoop} with a resync of an hour and no signal after the first: a pass that declines
 * (its caches do not show the last writes yet) is not counted, and the loop tries again after the
 * time the pass gave, by itself.
 */
class ADeclinedPassIsNotCountedAndIsTriedAgain {

    @Test
    void theLoopLooksAgainAfterTheTimeTheDeclinedPassGave() {
        AtomicInteger attempts = new AtomicInteger();
        LevelLoop loop = new LevelLoop("declining", () -> attempts.incrementAndGet() <= 2 ? Optional.of(Duration.ofMillis(50)) : Optional.empty(),
                Duration.ofHours(1), Duration.ofMillis(100));
        try (loop) {
            loop.start();
            await("the third attempt ran", () -> loop.passes() == 1);
            assertThat(attempts.get()).as("two declined attempts, then the pass").isEqualTo(3);
        }
    }
}
