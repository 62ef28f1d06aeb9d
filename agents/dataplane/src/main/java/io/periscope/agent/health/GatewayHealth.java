package io.periscope.agent.health;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    public synchronized DataplanePlan desired(DataplanePlan plan, Function<Ipv4Address, String> names) {
        List<HealthTarget> wanted = HealthTargets.of(plan, names);
        if (!closed && unavailable == null && !wanted.equals(targets)) {
            restart(wanted);
        }
        return checker == null ? plan : NexthopWithdrawal.withdraw(plan, checker.view().withdrawn());
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
