package io.periscope.lab.supervisor;

import io.periscope.dataplane.election.LeaseCandidate;
import io.periscope.dataplane.health.GatewayHealth;
import io.periscope.dataplane.health.HealthSettings;
import io.periscope.dataplane.health.IcmpEchoProber;
import io.periscope.dataplane.ovs.BridgeChange;
import io.periscope.dataplane.ovs.NodeBridge;
import io.periscope.dataplane.ovs.OvsBridgeProgrammer;
import io.periscope.lab.agent.NodeOvs;
import io.periscope.dataplane.reconcile.ReconcileResult;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.plan.DataplanePlan;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One node's Periscope agent as the supervisor runs it: level-driven, as on a real node. A pass
 * programs the node's plan with the gateways its health checker considers down as the planner's
 * input (their ownership moved to the live ones), less those gateways' nexthop choices; a
 * pass runs when a verdict changes and otherwise every {@code resync} (which also repairs what a
 * person or a crash changed). Stopping it (for {@code lab fail --mode agent-stop}) ends its probes
 * and its passes and leaves the kernel as it is, like a killed agent process.
 *
 * <p>A gateway node of a single-active cluster also stands for its cluster's lease while its agent
 * runs (a {@link LeaseCandidate} over the lab's lease file). A stopped agent abandons its candidacy
 * without releasing the lease, as a killed process does, so a standby takes over only once the lease
 * ran out; a resumed agent stands again from scratch. The plan it programs is the supervisor's
 * current one, which follows the leases' holders, planned again with the gateways this node
 * considers down: a function of both. After {@code lab apply} the current plan is that of the
 * edited topology; the agent reports the revision its node was last found to match.
 */
final class NodeAgentLoop implements AutoCloseable {

    private final HostNamespace node;
    private final Reconciler reconciler;
    /** On a node of an OVN-Kubernetes cluster, the keeper of its bridges (br-submariner), which a pass programs first. */
    private final Optional<OvsBridgeProgrammer> bridges;
    private final Supplier<SupervisedPlan> plans;
    private final Optional<Supplier<LeaseCandidate>> candidacy;
    private final HealthSettings settings;
    private final Consumer<String> log;
    private final Wakeup wakeup;
    private volatile boolean stopRequested;
    private volatile boolean closed;
    private volatile boolean running;
    private volatile long passes;
    private volatile String lastError = "";
    /** The revision of the last plan this node was found to match after a pass. */
    private volatile String converged = "";
    /** The lease holders of that plan. */
    private volatile Map<String, String> convergedHolders = Map.of();
    private GatewayHealth health;
    private volatile LeaseCandidate candidate;
    private Thread thread;

    /**
     * @param plans     the plan to program now (it changes when a lease changes hands)
     * @param candidacy opens this node's candidacy for its cluster's gateway lease, when it stands for one
     */
    NodeAgentLoop(HostNamespace node, Reconciler reconciler, Optional<OvsBridgeProgrammer> bridges, Supplier<SupervisedPlan> plans,
                  Optional<Supplier<LeaseCandidate>> candidacy, HealthSettings settings, Duration resync, Consumer<String> log) {
        this.node = node;
        this.reconciler = reconciler;
        this.bridges = bridges;
        this.plans = plans;
        this.candidacy = candidacy;
        this.settings = settings;
        this.wakeup = new Wakeup(resync);
        this.log = log;
    }

    String name() {
        return node.host().toString();
    }

    String namespace() {
        return node.namespace();
    }

    void start() {
        thread = Thread.ofPlatform().name("agent-" + name()).start(this::loop);
    }

    /** Makes the agent look again at once (a lease changed hands). */
    void poke() {
        signal();
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
        LeaseCandidate standing = candidate;
        return new SupervisorStatus.NodeAgentStatus(running, down, passes, lastError, standing != null && standing.leading(), converged,
                convergedHolders);
    }

    private void signal() {
        wakeup.poke();
    }

    private void loop() {
        while (!closed) {
            if (!wakeup.await()) {
                return;
            }
            if (closed) {
                break;
            }
            if (stopRequested) {
                if (running) {
                    stopHealth();
                    stopCandidacy(false);
                    running = false;
                    log.accept(name() + ": agent stopped");
                }
                continue;
            }
            if (!running) {
                health = new GatewayHealth(() -> IcmpEchoProber.openIn(node.namespace()), settings, Clock.systemUTC(), this::signal);
                candidate = candidacy.map(open -> open.get().start()).orElse(null);
                running = true;
                log.accept(name() + ": agent running");
            }
            pass();
        }
        stopHealth();
        stopCandidacy(true);
        running = false;
    }

    /** Released when the supervisor shuts down in order; abandoned when the agent is stopped as if killed. */
    private void stopCandidacy(boolean release) {
        LeaseCandidate standing = candidate;
        candidate = null;
        if (standing != null) {
            if (release) {
                standing.close();
            } else {
                standing.abandon();
            }
        }
    }

    private void pass() {
        try {
            SupervisedPlan current = plans.get();
            DataplanePlan desired = health.desired(down -> current.submariner(node.host(), down), current.gatewayNames());
            List<String> down = health.view().down();
            health.unavailable().ifPresent(reason -> lastError = reason);
            List<NodeBridge> wantedBridges = current.plan().host(node.host()).map(h -> NodeOvs.bridges(current.plan(), h)).orElse(List.of());
            List<BridgeChange> bridged = bridges.map(b -> b.program(wantedBridges)).orElse(List.of());
            ReconcileResult result = reconciler.reconcile(desired);
            passes++;
            if (!bridged.isEmpty()) {
                log.accept(name() + ": bridges: " + bridged);
            }
            if (result.changedAnything()) {
                log.accept(name() + ": " + result.applied().size() + " programs applied; gateways down: "
                        + (down.isEmpty() ? "none" : String.join(", ", down)));
            }
            if (health.unavailable().isEmpty()) {
                lastError = "";
            }
            // Converged as 'lab up' means it: read again after the programs, the node matches the plan.
            if (!result.changedAnything() || reconciler.diff(desired).isEmpty()) {
                convergedHolders = current.holders();
                converged = current.revision();
            } else {
                signal();
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
