package io.periscope.features.backend;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The exit hook's work ({@link LabExitGuard#exit}) run on a thread of the test, while another thread
 * builds a lab under the guard: what a SIGTERM in the middle of {@code up} does. The join timeouts are
 * there so that a hang fails the test instead of the build; they measure nothing.
 */
class LabExitGuardTakesTheLabDownWhileAScenarioBuilds {

    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    void aBuildWaitingForTheAgentsIsInterruptedAndTheLabGoesDownUnderTheLock() throws Exception {
        AtomicBoolean buildHeldTheLockDuringTakeDown = new AtomicBoolean();
        BuildInProgress holder = new BuildInProgress();
        LabExitGuard guard = new LabExitGuard(() -> {
            buildHeldTheLockDuringTakeDown.set(holder.building);
            log.add("taken down");
        }, log::add, Duration.ofMinutes(5));
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Throwable> buildEnded = new AtomicReference<>();
        Thread scenario = Thread.ofPlatform().start(() -> {
            try {
                guard.building(() -> {
                    holder.building = true;
                    try {
                        waiting.countDown();
                        Thread.sleep(Duration.ofMinutes(10)); // the agents' convergence, as KubernetesControlPlane waits for it
                        return null;
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("interrupted while the agents converged", e);
                    } finally {
                        holder.building = false;
                    }
                });
            } catch (Throwable t) {
                buildEnded.set(t);
            }
        });
        assertThat(waiting.await(1, TimeUnit.MINUTES)).isTrue();

        Thread hook = Thread.ofPlatform().start(guard::exit);
        hook.join(Duration.ofMinutes(2));
        scenario.join(Duration.ofMinutes(2));

        assertThat(hook.isAlive()).as("the hook returned").isFalse();
        assertThat(buildEnded.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("interrupted");
        assertThat(log).containsExactly("taken down");
        assertThat(buildHeldTheLockDuringTakeDown).as("the build had let go before the lab went down").isFalse();
        assertThat(guard.exiting()).isTrue();
    }

    @Test
    void noLabIsBuiltOnceTheJvmExitsButItCanStillBeTakenDown() {
        LabExitGuard guard = new LabExitGuard(() -> log.add("taken down"), log::add, Duration.ofMinutes(5));
        guard.exit();

        AtomicBoolean built = new AtomicBoolean();
        assertThatThrownBy(() -> guard.building(() -> {
            built.set(true);
            return null;
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("no lab is built");
        assertThat(built).isFalse();
        guard.locked(() -> log.add("down again"));
        assertThat(log).containsExactly("taken down", "down again");
    }

    @Test
    void aBuildThatIgnoresTheInterruptIsWaitedForOnlyThePatienceAndTheLabStillGoesDown() throws Exception {
        LabExitGuard guard = new LabExitGuard(() -> log.add("taken down"), log::add, Duration.ofMillis(200));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread stubborn = Thread.ofPlatform().start(() -> guard.building(() -> {
            holding.countDown();
            while (true) {
                try {
                    if (release.await(10, TimeUnit.MILLISECONDS)) {
                        return null;
                    }
                } catch (InterruptedException ignored) {
                    // a command that does not end on an interrupt
                }
            }
        }));
        assertThat(holding.await(1, TimeUnit.MINUTES)).isTrue();

        guard.exit();

        assertThat(stubborn.isAlive()).as("the build still holds the lock").isTrue();
        assertThat(log).hasSize(2);
        assertThat(log.getFirst()).contains("kept the lab 200 ms").contains("taking the lab down under it");
        assertThat(log.getLast()).isEqualTo("taken down");
        release.countDown();
        stubborn.join(Duration.ofMinutes(1));
    }

    /** Whether the scenario's build is inside its work, seen from the take-down. */
    private static final class BuildInProgress {
        volatile boolean building;
    }
}
