package io.periscope.lab.supervisor;

import io.periscope.lab.state.SupervisorProcess;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Stops a lab's supervisor: SIGTERM, a wait for its agents to close, then SIGKILL with a message.
 * Only while the pid still names the process that was recorded (same start since boot): after a crash or
 * a reboot the pid may be someone else's.
 */
public final class SupervisorStop {

    static final Duration GRACE = Duration.ofSeconds(10);

    /** @return whether a running supervisor was stopped */
    public boolean stop(SupervisorProcess supervisor, Consumer<String> messages) {
        Optional<ProcessHandle> handle = ProcessHandle.of(supervisor.pid());
        if (handle.isEmpty() || !isTheRecordedProcess(handle.get(), supervisor)) {
            return false;
        }
        handle.get().destroy();
        try {
            handle.get().onExit().get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            messages.accept("the lab's supervisor (pid " + supervisor.pid() + ") did not stop within " + GRACE.toSeconds()
                    + " s of SIGTERM; killing it (SIGKILL)");
            handle.get().destroyForcibly();
            handle.get().onExit().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot wait for the lab's supervisor " + supervisor.pid() + " to stop", e);
        }
        return true;
    }

    /** Whether the supervisor runs (the recorded pid, started at the recorded tick since boot). */
    public static boolean running(SupervisorProcess supervisor) {
        return ProcessHandle.of(supervisor.pid()).filter(ProcessHandle::isAlive).filter(h -> isTheRecordedProcess(h, supervisor)).isPresent();
    }

    private static boolean isTheRecordedProcess(ProcessHandle handle, SupervisorProcess supervisor) {
        if (supervisor.startTicks() > 0) {
            OptionalLong ticks = ProcessStart.ticksSinceBoot(handle.pid());
            return ticks.isPresent() && ticks.getAsLong() == supervisor.startTicks();
        }
        // A state file from before the ticks were recorded: its instant is all there is.
        Optional<Instant> started = handle.info().startInstant();
        return started.isPresent() && started.get().toString().equals(supervisor.started());
    }
}
