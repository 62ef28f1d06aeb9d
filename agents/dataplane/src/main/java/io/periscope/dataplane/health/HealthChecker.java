package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Probes a node's gateways round after round and tells the agent when its verdicts change.
 *
 * <p>One round sends a probe to every target and waits until the next round is due; the round's
 * answers feed each gateway's {@link PeerHealth}. When a gateway goes down or comes back the new
 * {@link HealthView} is handed to {@code onChange} on a thread of its own, so a slow reconcile never
 * delays the probes; views that pile up meanwhile collapse into the latest, which is all a
 * level-driven agent needs. {@link #round(Instant)} is the loop's body, public so tests can drive it.
 */
public final class HealthChecker implements AutoCloseable {

    private final List<HealthTarget> targets;
    private final Prober prober;
    private final HealthSettings settings;
    private final Clock clock;
    private final Consumer<HealthView> onChange;
    private final AtomicReference<HealthView> view;
    private final AtomicReference<HealthView> pending = new AtomicReference<>();
    private final ExecutorService notifier;
    private volatile Thread loop;
    private volatile boolean closed;

    /** Watches {@code targets}, each starting up. */
    public HealthChecker(List<HealthTarget> targets, Prober prober, HealthSettings settings, Clock clock, Consumer<HealthView> onChange) {
        this(startingUp(targets, clock.instant()), prober, settings, clock, onChange);
    }

    /** Watches the targets of {@code initial}, each starting from the health it has there. */
    public HealthChecker(HealthView initial, Prober prober, HealthSettings settings, Clock clock, Consumer<HealthView> onChange) {
        this.targets = List.copyOf(initial.peers().keySet());
        this.prober = prober;
        this.settings = settings;
        this.clock = clock;
        this.onChange = onChange;
        this.view = new AtomicReference<>(initial);
        this.notifier = Executors.newSingleThreadExecutor(runnable -> Thread.ofPlatform().daemon().name("health-notify").unstarted(runnable));
    }

    private static HealthView startingUp(List<HealthTarget> targets, Instant now) {
        Map<HealthTarget, PeerHealth> initial = new LinkedHashMap<>();
        targets.forEach(target -> initial.put(target, PeerHealth.initial(now)));
        return new HealthView(initial);
    }

    /** Starts probing on a platform thread of its own. */
    public synchronized void start() {
        if (loop != null || targets.isEmpty()) {
            return;
        }
        loop = Thread.ofPlatform().daemon().name("health-checker").start(() -> {
            while (!closed) {
                round(clock.instant());
            }
        });
    }

    public HealthView view() {
        return view.get();
    }

    /** One round: probe every target (waiting at most one interval), update the verdicts, notify on a change. */
    public HealthView round(Instant started) {
        List<Ipv4Address> addresses = targets.stream().map(HealthTarget::probe).distinct().toList();
        Set<Ipv4Address> answered = prober.round(addresses, settings.interval());
        // A round that came back early (every target answered) still waits out its interval: the rate stays fixed.
        Duration left = Duration.between(clock.instant(), started.plus(settings.interval()));
        if (!left.isNegative() && !left.isZero() && loop == Thread.currentThread()) {
            sleep(left);
        }
        Instant now = clock.instant();
        HealthView before = view.get();
        Map<HealthTarget, PeerHealth> next = new LinkedHashMap<>();
        before.peers().forEach((target, health) -> next.put(target, health.after(answered.contains(target.probe()), now, settings)));
        HealthView after = new HealthView(next);
        view.set(after);
        if (!after.sameVerdicts(before) && !closed) {
            if (pending.getAndSet(after) == null) {
                notifier.execute(() -> onChange.accept(pending.getAndSet(null)));
            }
        }
        return after;
    }

    @Override
    public void close() {
        closed = true;
        Thread running = loop;
        if (running != null) {
            try {
                running.join(settings.interval().multipliedBy(4).toMillis() + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        notifier.shutdown();
        try {
            notifier.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        prober.close();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
