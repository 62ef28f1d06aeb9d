package io.periscope.kubernetes.leaderelection;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Candidacy for one Lease with fabric8's LeaderElector, for as long as it is open. fabric8's elector
 * ends once its holder loses the lease; this one stands again, so a gateway that lost its lease
 * (say, to a network partition) becomes a candidate once more. On close the lease is released at
 * once, so the next candidate takes over within a retry period instead of a lease duration.
 *
 * <p>{@link Leadership#started()} and {@link Leadership#stopped()} are called from the elector's
 * threads, alternately and at most once per term; they must return quickly.
 */
public final class LeaseElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseElection.class);

    /** What to do when leadership starts and stops. */
    public interface Leadership {
        void started();

        void stopped();

        /** For a level-driven agent: winning or losing the lease is one more reason to look again. */
        static Leadership signalling(Runnable signal) {
            return new Leadership() {
                @Override
                public void started() {
                    signal.run();
                }

                @Override
                public void stopped() {
                    signal.run();
                }
            };
        }
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String leaseName;
    private final String identity;
    private final LeaseTimings timings;
    private final Leadership leadership;
    private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name("lease-" + "restart").unstarted(r));
    private CompletableFuture<?> running;
    private boolean leading;
    private boolean closed;
    private Optional<String> leader = Optional.empty();

    public LeaseElection(KubernetesClient client, String namespace, String leaseName, String identity, LeaseTimings timings, Leadership leadership) {
        this.client = client;
        this.namespace = namespace;
        this.leaseName = leaseName;
        this.identity = identity;
        this.timings = timings;
        this.leadership = leadership;
    }

    public String leaseName() {
        return leaseName;
    }

    public synchronized LeaseElection start() {
        if (closed || running != null && !running.isDone()) {
            return this;
        }
        var config = new LeaderElectionConfigBuilder()
                .withName(leaseName)
                .withLock(new LeaseLock(namespace, leaseName, identity))
                .withLeaseDuration(timings.leaseDuration())
                .withRenewDeadline(timings.renewDeadline())
                .withRetryPeriod(timings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(this::onStart, this::onStop, this::onNewLeader))
                .build();
        running = client.leaderElector().withConfig(config).build().start();
        running.whenComplete((ignored, failure) -> {
            if (failure != null && !(failure instanceof java.util.concurrent.CancellationException)) {
                LOG.warn("lease {}/{}: election ended: {}", namespace, leaseName, failure.toString());
            }
            onStop();
            synchronized (this) {
                if (!closed) {
                    restarts.schedule(this::start, timings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        });
        return this;
    }

    public synchronized boolean leading() {
        return leading;
    }

    /** The holder as last observed, if any. */
    public synchronized Optional<String> leader() {
        return leader;
    }

    private void onStart() {
        synchronized (this) {
            if (leading || closed) {
                return;
            }
            leading = true;
        }
        LOG.info("{} leads lease {}/{}", identity, namespace, leaseName);
        leadership.started();
    }

    private void onStop() {
        synchronized (this) {
            if (!leading) {
                return;
            }
            leading = false;
        }
        LOG.info("{} no longer leads lease {}/{}", identity, namespace, leaseName);
        leadership.stopped();
    }

    private synchronized void onNewLeader(String holder) {
        leader = Optional.ofNullable(holder).filter(h -> !h.isBlank());
    }

    /** Ends the candidacy; a leader releases the lease (and is told it stopped leading) before this returns. */
    @Override
    public void close() {
        CompletableFuture<?> current;
        synchronized (this) {
            closed = true;
            current = running;
        }
        restarts.shutdownNow();
        if (current != null) {
            current.cancel(true);
        }
        onStop();
    }
}
