package io.periscope.lab.lease;

import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Waits for what a running lab's supervisor reports in its status file, for the lease tests. */
final class SupervisorStatusWait {

    private SupervisorStatusWait() {
    }

    /** Until the status satisfies {@code condition}; fails after 30 s naming {@code what} and the last status seen. */
    static void until(SupervisorFiles files, Predicate<SupervisorStatus> condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<SupervisorStatus> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            Optional<SupervisorStatus> status = files.readStatus();
            if (status.isPresent() && condition.test(status.get())) {
                return;
            }
            status.ifPresent(seen::add);
            Thread.sleep(50);
        }
        throw new AssertionError(what + " did not happen within 30 s; last status: " + (seen.isEmpty() ? "none" : seen.getLast()));
    }

    /**
     * Every running agent found its node matching the plan in which {@code cluster}'s lease is held by {@code holder}:
     * {@code leading} only says who holds the lease, and the takeover's routes and chains follow in the agents' next passes.
     */
    static Predicate<SupervisorStatus> everyRunningAgentProgrammed(String cluster, String holder) {
        return status -> status.nodes().values().stream().filter(SupervisorStatus.NodeAgentStatus::running)
                .allMatch(agent -> holder.equals(agent.convergedHolders().get(cluster)));
    }
}
