package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Health checking as a level-driven agent uses it: each pass hands in the node's plan and gets back
 * the plan to program, its dead gateways' choices withdrawn. The gateways watched follow the plan
 * (a new remote gateway is watched from the next pass, a removed one forgotten); a gateway watched
 * before keeps its verdict. A change of verdict calls {@code onChange}, which for an agent is "run
 * a pass soon". When no prober can be opened (no {@code CAP_NET_RAW}) the agent programs the plan
 * as it is and says so once, through {@link #unavailable()}.
 */
public final class GatewayHealth implements AutoCloseable {

    /** Probers for an agent that is not to health-check: opening one says so, and the plan is programmed as it is. */
    public static final Supplier<Prober> OFF = () -> {
        throw new IllegalStateException("health checking is off for this agent");
    };

    private final Supplier<Prober> probers;
    private final HealthSettings settings;
    private final Clock clock;
    private final Runnable onChange;
    private HealthChecker checker;
    private List<HealthTarget> targets = List.of();
    private String unavailable;
    private boolean closed;

    public GatewayHealth(Supplier<Prober> probers, HealthSettings settings, Clock clock, Runnable onChange) {
        this.probers = probers;
        this.settings = settings;
        this.clock = clock;
        this.onChange = onChange;
    }

    /** The plan to program: {@code plan} without the choices that lead to gateways considered down. */
    public DataplanePlan desired(DataplanePlan plan, Function<Ipv4Address, String> names) {
        return desired(down -> plan, names);
    }

    /**
     * The plan to program when what a node owes a gateway depends on whether it is up (per-gateway
     * egress ownership): {@code planFor} gives the node's plan with the named gateways
     * ({@code cluster/node}, as {@link HealthView#down()} names them) down, from the pure planner with
     * the live gateways as its input, and the dead gateways' choices are withdrawn from that plan as
     * from any other. The gateways watched are those of the plan with every gateway up, so a verdict
     * never changes what is watched; a gateway that comes back is simply no longer named.
     */
    public synchronized DataplanePlan desired(Function<Set<String>, DataplanePlan> planFor, Function<Ipv4Address, String> names) {
        DataplanePlan healthy = planFor.apply(Set.of());
        List<HealthTarget> wanted = HealthTargets.of(healthy, names);
        if (!closed && unavailable == null && !wanted.equals(targets)) {
            restart(wanted);
        }
        if (checker == null) {
            return healthy;
        }
        // One view for both, so the gateways moved away from and the nexthops withdrawn agree.
        HealthView view = checker.view();
        List<String> down = view.down();
        DataplanePlan plan = down.isEmpty() ? healthy : planFor.apply(Set.copyOf(down));
        return NexthopWithdrawal.withdraw(plan, view.withdrawn());
    }

    /** What this node considers up and down now (empty when nothing is watched). */
    public synchronized HealthView view() {
        return checker == null ? new HealthView(Map.of()) : checker.view();
    }

    /** Why no gateway is watched, when probing is impossible here. */
    public synchronized java.util.Optional<String> unavailable() {
        return java.util.Optional.ofNullable(unavailable);
    }

    public HealthSettings settings() {
        return settings;
    }

    private void restart(List<HealthTarget> wanted) {
        Map<HealthTarget, PeerHealth> kept = new LinkedHashMap<>();
        if (checker != null) {
            kept.putAll(checker.view().peers());
            checker.close();
            checker = null;
        }
        targets = wanted;
        if (wanted.isEmpty()) {
            return;
        }
        Prober prober;
        try {
            prober = probers.get();
        } catch (RuntimeException e) {
            unavailable = "gateways are not health-checked: " + e.getMessage();
            return;
        }
        Map<HealthTarget, PeerHealth> initial = new LinkedHashMap<>();
        for (HealthTarget target : wanted) {
            initial.put(target, kept.getOrDefault(target, PeerHealth.initial(clock.instant())));
        }
        checker = new HealthChecker(new HealthView(initial), prober, settings, clock, view -> onChange.run());
        checker.start();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (checker != null) {
            checker.close();
            checker = null;
        }
    }
}
