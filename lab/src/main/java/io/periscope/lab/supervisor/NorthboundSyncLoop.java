package io.periscope.lab.supervisor;

import io.periscope.dataplane.ovn.NbChange;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.plan.Names;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.OvnTopology;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Submariner's network plugin syncer of one OVN-Kubernetes cluster as the supervisor runs it: it
 * keeps Submariner's part of the cluster's northbound database equal to the supervisor's current
 * plan, through the agents' own {@link NorthboundProgrammer} (scope {@code SUBMARINER}), as the
 * Kubernetes syncer does ({@code io.periscope.kubernetes.networkpluginsyncer}). The current plan
 * follows the lease holders, so when a standby takes a cluster's lease {@code submariner_router}'s
 * {@code options:chassis} moves to it, with whatever else the plan changes in Submariner's rows; the
 * nodes' agents move the host side (table 149, the chains) from the same plan. Under upstream's
 * design ({@code behaviour: upstream}) there is no {@code submariner_router}: what moves is the
 * reroute policies and the marked static routes on {@code ovn_cluster_router}, to the new holder's
 * {@code ovn-k8s-mp0}, which upstream's route agent writes from its gateway route controller.
 *
 * <p>It follows the holders' plan, not a node's health verdicts: upstream's syncer reads the local
 * gateway's Endpoint, which names the lease holder, and so does this one. A pass runs when poked (a
 * lease changed hands, an edited topology was applied) and otherwise every {@code resync}, which
 * also puts back what a person changed in Submariner's rows. It is a Deployment upstream, so no
 * node's failure stops it; the databases it writes run in the control-plane node's namespace and
 * are reached over their unix socket, which no link of the lab carries.
 */
final class NorthboundSyncLoop implements AutoCloseable {

    private final String cluster;
    private final NorthboundProgrammer programmer;
    private final Supplier<SupervisedPlan> plans;
    private final Consumer<String> log;
    private final Wakeup wakeup;
    private volatile boolean closed;
    private volatile long passes;
    private volatile String lastError = "";
    private volatile String converged = "";
    private volatile String chassis = "";
    private Thread thread;

    NorthboundSyncLoop(String cluster, NorthboundProgrammer programmer, Supplier<SupervisedPlan> plans, Duration resync,
                       Consumer<String> log) {
        this.cluster = cluster;
        this.programmer = programmer;
        this.plans = plans;
        this.log = log;
        this.wakeup = new Wakeup(resync);
    }

    String cluster() {
        return cluster;
    }

    void start() {
        thread = Thread.ofPlatform().name("network-plugin-syncer-" + cluster).start(this::loop);
    }

    /** Makes the syncer look again at once (a lease changed hands, a topology was applied). */
    void poke() {
        wakeup.poke();
    }

    SupervisorStatus.NorthboundStatus status() {
        return new SupervisorStatus.NorthboundStatus(passes, chassis, converged, lastError);
    }

    private void loop() {
        while (!closed) {
            if (!wakeup.await() || closed) {
                return;
            }
            pass();
        }
    }

    /** One pass; what it did is logged only when it changed something or its error is new. */
    void pass() {
        SupervisedPlan current = plans.get();
        Optional<OvnTopology> topology = current.plan().ovn(cluster);
        if (topology.isEmpty()) {
            // lab apply refuses a change of CNI, so only a plan that failed halfway gets here.
            return;
        }
        String bound = submarinerChassis(topology.get());
        try {
            List<NbChange> changes = programmer.program(topology.get());
            passes++;
            if (!changes.isEmpty()) {
                String where = topology.get().router(Names.SUBMARINER_ROUTER).isPresent()
                        ? "submariner_router on chassis " + bound + (chassis.isEmpty() || chassis.equals(bound) ? "" : " (was " + chassis + ")")
                        : reroutedTo(topology.get());
                log.accept(cluster + ": network plugin syncer: " + changes.size() + (changes.size() == 1 ? " northbound change" : " northbound changes")
                        + ", " + where);
            }
            chassis = bound;
            converged = current.revision();
            lastError = "";
        } catch (RuntimeException e) {
            String reason = String.valueOf(e.getMessage()).strip();
            if (!reason.equals(lastError)) {
                log.accept(cluster + ": network plugin syncer: pass failed: " + reason);
            }
            lastError = reason;
        }
    }

    /**
     * Under upstream's design, where Submariner's reroute policies on {@code ovn_cluster_router} send remote
     * traffic: the active gateway's {@code ovn-k8s-mp0}.
     */
    static String reroutedTo(OvnTopology topology) {
        List<String> hops = topology.router(Names.OVN_CLUSTER_ROUTER).stream().flatMap(r -> r.policies().stream())
                .filter(p -> p.priority() == Names.OVN_REROUTE_PRIORITY).flatMap(p -> p.nexthop().stream()).map(Object::toString)
                .distinct().toList();
        return hops.isEmpty() ? "nothing rerouted" : "ovn_cluster_router reroutes to " + String.join(", ", hops);
    }

    /** The chassis the plan binds {@code submariner_router} to; none under upstream's design or with every gateway down. */
    static String submarinerChassis(OvnTopology topology) {
        return topology.router(Names.SUBMARINER_ROUTER).flatMap(LogicalRouter::chassis).orElse("none");
    }

    @Override
    public void close() {
        closed = true;
        wakeup.poke();
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
