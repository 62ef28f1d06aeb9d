package io.periscope.kubernetes.networkpluginsyncer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.ovn.Northbound;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.dataplane.ovn.NorthboundScope;
import io.periscope.kubernetes.runtime.Controller;
import io.periscope.kubernetes.runtime.ControllerRuntime;
import io.periscope.kubernetes.runtime.Pass;
import io.periscope.kubernetes.runtime.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

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
 *
 * <p>It runs on the {@link ControllerRuntime} (informers, level loop, its lease: passes run whether it
 * leads or not, a standby saying so). It writes nothing to the API: its pass plans with
 * {@link SyncerPass#plan} and programs the database at its edge (see {@link Controller}).
 */
public final class NetworkPluginSyncer implements Controller, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NetworkPluginSyncer.class);

    private final NetworkPluginSyncerSettings settings;
    private final NorthboundProgrammer programmer;
    private final ControllerRuntime runtime;
    private volatile Optional<SyncOutcome> lastOutcome = Optional.empty();
    private SyncOutcome lastLogged;

    public NetworkPluginSyncer(KubernetesClient client, NetworkPluginSyncerSettings settings, Northbound northbound) {
        this.settings = settings;
        this.programmer = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
        this.runtime = ControllerRuntime.builder("network-plugin-syncer-" + settings.clusterId(), client)
                .liveObjects(settings.namespace(), settings.clusterId())
                .lease(settings.namespace(), NetworkPluginSyncerSettings.LEASE, settings.identity(), settings.timings())
                .resync(settings.resync()).retry(settings.retry())
                .build(this);
    }

    /** Watches the cluster, then stands for the lease; returns once the informers hold the initial lists. */
    public NetworkPluginSyncer start() {
        runtime.start();
        return this;
    }

    public boolean leading() {
        return runtime.leading();
    }

    /** What the last pass found and did; empty before the first. */
    public Optional<SyncOutcome> lastOutcome() {
        return lastOutcome;
    }

    public long passes() {
        return runtime.passes();
    }

    @Override
    public Pass pass(Snapshot snapshot) {
        SyncOutcome outcome = snapshot.leading()
                ? SyncerPass.run(snapshot.live(), settings.namespace(), programmer)
                : new SyncOutcome.Standby(snapshot.leader());
        lastOutcome = Optional.of(outcome);
        report(outcome);
        // The runtime keeps one such retry at a time: passes woken by events meanwhile start no chains of their own.
        return outcome.retrySoon() ? Pass.COME_BACK_SOON : Pass.NOTHING;
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
        runtime.close();
    }
}
