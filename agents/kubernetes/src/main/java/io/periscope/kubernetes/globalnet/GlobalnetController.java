package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.runtime.ControllerRuntime;

import java.time.Clock;
import java.time.Duration;

/**
 * The Globalnet controller: one replica (seed 004 makes it a Deployment so that there is exactly
 * one allocator per cluster), leader-elected on a Lease so that a second replica during a rollout
 * waits. While it leads, it watches the cluster and runs {@link GlobalnetPass}es (or, for a cluster
 * whose Cluster object says {@code globalnet_mode: legacy}, {@link LegacyGlobalnetPass}es); the
 * allocation book lives for one leadership term and starts from the objects' status (legacy: from
 * the {@code submariner.io/globalIp} annotations).
 *
 * <p>It runs on the {@link ControllerRuntime} with a controller per leadership term
 * ({@link GlobalnetTerm}): informers, loop and book exist only while this replica leads.
 */
public final class GlobalnetController implements AutoCloseable {

    private final ControllerRuntime runtime;

    public GlobalnetController(KubernetesClient client, GlobalnetSettings settings, Clock clock) {
        this.runtime = ControllerRuntime.builder("globalnet-" + settings.clusterId(), client)
                .liveObjects(settings.namespace(), settings.clusterId())
                .lease(settings.namespace(), GlobalnetSettings.LEASE, settings.identity(), settings.timings())
                .resync(settings.resync()).retry(Duration.ofSeconds(1))
                .buildPerTerm(() -> new GlobalnetTerm(settings.clusterId(), clock));
    }

    public GlobalnetController start() {
        runtime.start();
        return this;
    }

    public boolean leading() {
        return runtime.leading();
    }

    /** Passes completed in the current term (0 when not leading). */
    public long passes() {
        return runtime.passes();
    }

    /** Stops passes first (so that nothing is written after), then releases the lease. */
    @Override
    public void close() {
        runtime.close();
    }
}
