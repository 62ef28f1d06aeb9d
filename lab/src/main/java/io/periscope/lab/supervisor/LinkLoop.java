package io.periscope.lab.supervisor;

import io.periscope.lab.link.LinkReconciler;
import io.periscope.dataplane.command.CommandRunner;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The lab's links as the supervisor keeps them: a pass of the {@link LinkReconciler} when the plan
 * changes ({@code lab apply} handed over a topology) and otherwise every {@code resync}, which also
 * puts back what a person changed by hand. It reports the revision of the topology whose links it
 * last found in place, which {@code lab apply} waits for. Slower than the node agents' resync: a pass
 * reads every shaped namespace with a few programs, and a benchmark measuring the links shares the
 * machine with it.
 */
final class LinkLoop implements AutoCloseable {

    private final LinkReconciler reconciler;
    private final Supplier<SupervisedPlan> plans;
    private final Consumer<String> log;
    private final Wakeup wakeup;
    private volatile boolean closed;
    private volatile long passes;
    private volatile String lastError = "";
    private volatile String converged = "";
    private volatile String summary = "";
    private Thread thread;

    LinkLoop(CommandRunner runner, Supplier<SupervisedPlan> plans, Duration resync, Consumer<String> log) {
        // The supervisor starts right after up, which shaped the links; a restarted one finds them as they are.
        this.reconciler = LinkReconciler.forRunningLab(runner);
        this.plans = plans;
        this.wakeup = new Wakeup(resync);
        this.log = log;
    }

    void start() {
        thread = Thread.ofPlatform().name("links").daemon().start(this::loop);
    }

    /** Makes the loop look again at once (the topology changed). */
    void poke() {
        wakeup.poke();
    }

    private void loop() {
        while (!closed) {
            if (!wakeup.await()) {
                return;
            }
            if (!closed) {
                pass();
            }
        }
    }

    private void pass() {
        SupervisedPlan plan = plans.get();
        try {
            LinkReconciler.Result result = reconciler.reconcile(plan.links());
            if (!result.changedNothing()) {
                log.accept("links: " + result.differences().size() + " differences put right with " + result.programs() + " programs: "
                        + String.join("; ", result.differences().subList(0, Math.min(5, result.differences().size())))
                        + (result.differences().size() > 5 ? "; ..." : ""));
            }
            converged = plan.revision();
            summary = plan.linkSummary();
            lastError = "";
        } catch (RuntimeException e) {
            if (!e.getMessage().equals(lastError)) {
                log.accept("links: the pass failed: " + e.getMessage());
            }
            lastError = String.valueOf(e.getMessage());
        }
        passes++;
    }

    SupervisorStatus.LinkStatus status() {
        return new SupervisorStatus.LinkStatus(passes, converged, summary, lastError);
    }

    @Override
    public void close() {
        closed = true;
        poke();
        if (thread != null) {
            thread.interrupt();
        }
    }
}
