package io.periscope.kubernetes.networkpluginsyncer;

import io.periscope.agent.election.LeaseCandidate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.agent.ovn.Northbound;
import io.periscope.agent.ovn.NorthboundProgrammer;
import io.periscope.agent.ovn.NorthboundScope;
import io.periscope.kubernetes.leaderelection.LeaseElection;
import io.periscope.kubernetes.watch.LevelLoop;
import io.periscope.kubernetes.watch.LiveObjectsInformers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Submariner's network plugin syncer (seed 003) for OVN-Kubernetes clusters: a Deployment of one
 * replica, leader-elected on a lease of its own, that keeps Submariner's part of the cluster's OVN
 * northbound database equal to the plan. The plan already says what upstream derives from Endpoint
 * notifications: a remote cluster's Endpoint gives a reroute policy on {@code ovn_cluster_router}
 * and routes on {@code submariner_router}; the local active gateway (the lease holder, whose Endpoint
 * upstream reads) is the chassis {@code submariner_router} is pinned to. Level-driven: every pass,
 * on any change to the watched objects and at least every resync, compares the whole database
 * with the plan through {@link NorthboundProgrammer} (scope {@link NorthboundScope#SUBMARINER}), so
 * OVN-Kubernetes' own rows are never touched.
 *
 * <p>What each pass found is logged when it differs from the last pass (every change it makes is
 * logged), so a cluster that is not OVN-Kubernetes, or one whose OVN-Kubernetes has not built its
 * routers yet, is reported once rather than every resync. Those two waits are not Kubernetes events,
 * so after a missing row or an unreachable database the pass comes back after {@code retry}.
 *
 * <p>Stopping leaves the rows in place: they keep carrying traffic until the next replica, which
 * starts from what is in the database, takes over.
 */
public final class NetworkPluginSyncer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NetworkPluginSyncer.class);

    private final KubernetesClient client;
    private final NetworkPluginSyncerSettings settings;
    private final NorthboundProgrammer programmer;
    private final LevelLoop loop;
    private final LeaseElection election;
    private final ScheduledExecutorService retries;
    private LiveObjectsInformers informers;
    private volatile Optional<SyncOutcome> lastOutcome = Optional.empty();
    private SyncOutcome lastLogged;
    private final AtomicBoolean retryPending = new AtomicBoolean();

    public NetworkPluginSyncer(KubernetesClient client, NetworkPluginSyncerSettings settings, Northbound northbound) {
        this.client = client;
        this.settings = settings;
        this.programmer = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
        this.loop = new LevelLoop("network-plugin-syncer-" + settings.clusterId(), this::pass, settings.resync(), settings.retry());
        this.retries = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name("network-plugin-syncer-retry").unstarted(r));
        this.election = new LeaseElection(client, settings.namespace(), NetworkPluginSyncerSettings.LEASE, settings.identity(), settings.timings(),
                LeaseCandidate.Leadership.signalling(() -> loop.signal()));
    }

    /** Watches the cluster, then stands for the lease; returns once the informers hold the initial lists. */
    public NetworkPluginSyncer start() {
        informers = new LiveObjectsInformers(client, settings.namespace(), settings.clusterId(), loop::signal);
        loop.start();
        election.start();
        return this;
    }

    public boolean leading() {
        return election.leading();
    }

    /** What the last pass found and did; empty before the first. */
    public Optional<SyncOutcome> lastOutcome() {
        return lastOutcome;
    }

    public long passes() {
        return loop.passes();
    }

    private void pass() {
        SyncOutcome outcome = election.leading()
                ? SyncerPass.run(informers.snapshot(), settings.namespace(), programmer)
                : new SyncOutcome.Standby(election.leader());
        lastOutcome = Optional.of(outcome);
        report(outcome);
        // One retry at a time: passes woken by events meanwhile must not start chains of their own.
        if (outcome.retrySoon() && retryPending.compareAndSet(false, true)) {
            retries.schedule(() -> {
                retryPending.set(false);
                loop.signal();
            }, settings.retry().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Logs what is new: every programming, otherwise only a change of situation. */
    private void report(SyncOutcome outcome) {
        boolean news = outcome instanceof SyncOutcome.Programmed || !outcome.equals(lastLogged);
        lastLogged = outcome;
        String line = "network plugin syncer " + settings.identity() + " (cluster " + settings.clusterId() + "): " + outcome.describe();
        if (!news) {
            LOG.debug(line);
        } else if (outcome instanceof SyncOutcome.WaitingForOvnKubernetes || outcome instanceof SyncOutcome.DatabaseFailed
                || outcome instanceof SyncOutcome.CannotPlan) {
            LOG.warn(line + (outcome.retrySoon() ? "; trying again in " + settings.retry().toMillis() + " ms" : ""));
        } else {
            LOG.info(line);
        }
    }

    /** Stops passes first (nothing is written after), then releases the lease so a standby takes over at once. */
    @Override
    public void close() {
        loop.close();
        retries.shutdownNow();
        election.close();
        if (informers != null) {
            informers.close();
        }
    }
}
