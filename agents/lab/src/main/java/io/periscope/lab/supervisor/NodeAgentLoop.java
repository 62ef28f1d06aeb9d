package io.periscope.lab.supervisor;

import io.periscope.agent.health.GatewayHealth;
import io.periscope.agent.health.HealthSettings;
import io.periscope.agent.health.IcmpEchoProber;
import io.periscope.agent.reconcile.ReconcileResult;
import io.periscope.agent.reconcile.Reconciler;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One node's Periscope agent as the supervisor runs it: level-driven, as on a real node. A pass
 * programs the node's plan with the gateways its health checker considers down as the planner's
 * input (their ownership moved to the live ones), less those gateways' nexthop choices; a
 * pass runs when a verdict changes and otherwise every {@code resync} (which also repairs what a
 * person or a crash changed). Stopping it (for {@code lab fail --mode agent-stop}) ends its probes
 * and its passes and leaves the kernel as it is, like a killed agent process.
 */
final class NodeAgentLoop implements AutoCloseable {

    private final HostNamespace node;
    private final Function<Set<String>, DataplanePlan> planFor;
    private final Reconciler reconciler;
    private final Function<Ipv4Address, String> gatewayNames;
    private final HealthSettings settings;
    private final Duration resync;
    private final Consumer<String> log;
    private final Object signal = new Object();
    private boolean signalled = true;
    private volatile boolean stopRequested;
    private volatile boolean closed;
    private volatile boolean running;
    private volatile long passes;
    private volatile String lastError = "";
    private GatewayHealth health;
    private Thread thread;

    /** @param planFor the node's Submariner layer with the named gateways ({@code cluster/node}) down */
    NodeAgentLoop(HostNamespace node, Function<Set<String>, DataplanePlan> planFor, Reconciler reconciler,
                  Function<Ipv4Address, String> gatewayNames, HealthSettings settings,
                  Duration resync, Consumer<String> log) {
        this.node = node;
        this.planFor = planFor;
        this.reconciler = reconciler;
        this.gatewayNames = gatewayNames;
        this.settings = settings;
        this.resync = resync;
        this.log = log;
    }

    String name() {
        return node.host().toString();
    }

    void start() {
        thread = Thread.ofPlatform().name("agent-" + name()).start(this::loop);
    }

    /** Stops or resumes the agent; takes effect at its next pass, which this triggers. */
    void wanted(boolean run) {
        if (stopRequested == run) {
            stopRequested = !run;
            signal();
        }
    }

    SupervisorStatus.NodeAgentStatus status() {
        GatewayHealth current = health;
        List<String> down = current == null ? List.of() : current.view().down();
        return new SupervisorStatus.NodeAgentStatus(running, down, passes, lastError);
    }

    private void signal() {
        synchronized (signal) {
            signalled = true;
            signal.notifyAll();
        }
    }

    private void loop() {
        while (!closed) {
            synchronized (signal) {
                if (!signalled) {
                    try {
                        signal.wait(resync.toMillis());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                signalled = false;
            }
            if (closed) {
                break;
            }
            if (stopRequested) {
                if (running) {
                    stopHealth();
                    running = false;
                    log.accept(name() + ": agent stopped");
                }
                continue;
            }
            if (!running) {
                health = new GatewayHealth(() -> IcmpEchoProber.openIn(node.namespace()), settings, Clock.systemUTC(), this::signal);
                running = true;
                log.accept(name() + ": agent running");
            }
            pass();
        }
        stopHealth();
        running = false;
    }

    private void pass() {
        try {
            DataplanePlan desired = health.desired(planFor, gatewayNames);
            List<String> down = health.view().down();
            health.unavailable().ifPresent(reason -> lastError = reason);
            ReconcileResult result = reconciler.reconcile(desired);
            passes++;
            if (result.changedAnything()) {
                log.accept(name() + ": " + result.applied().size() + " programs applied; gateways down: "
                        + (down.isEmpty() ? "none" : String.join(", ", down)));
            }
            if (health.unavailable().isEmpty()) {
                lastError = "";
            }
        } catch (RuntimeException e) {
            lastError = String.valueOf(e.getMessage());
            log.accept(name() + ": pass failed: " + e.getMessage());
        }
    }

    private void stopHealth() {
        if (health != null) {
            health.close();
            health = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        signal();
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
