package io.periscope.kubernetes.dns;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dns.ClustersetZone;
import io.periscope.dns.DnsServer;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.runtime.Api;
import io.periscope.kubernetes.runtime.Controller;
import io.periscope.kubernetes.runtime.ControllerRuntime;
import io.periscope.kubernetes.runtime.Pass;
import io.periscope.kubernetes.runtime.Snapshot;
import io.periscope.kubernetes.runtime.Watch;
import io.periscope.plan.dns.ServiceDiscovery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The cluster's DNS server for {@code clusterset.local}, fed by informers: every change to the
 * objects {@link LiveDiscovery} reads wakes one worker, which rebuilds the whole resolver from the
 * caches and swaps it into the {@link ClustersetZone} the server answers from. Level-driven and
 * coalesced: a burst of events is one rebuild, a missed event is repaired by the next one (at least
 * every resync). It only reads the API; any number of replicas can serve.
 *
 * <p>It runs on the {@link ControllerRuntime} (informers, level loop; no lease, nothing to write):
 * its pass swaps the zone at its edge (see {@link Controller}).
 */
public final class DnsAgent implements Controller, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DnsAgent.class);

    private final DnsAgentSettings settings;
    private final Watch<ServiceImport> imports = Watch.everywhere(Api.LOCAL, ServiceImport.class);
    private final Watch<Gateway> gateways;
    private final ControllerRuntime runtime;
    private ClustersetZone zone;
    private DnsServer server;
    private String lastReported;

    public DnsAgent(KubernetesClient client, DnsAgentSettings settings) {
        this.settings = settings;
        this.gateways = Watch.inNamespace(Api.LOCAL, Gateway.class, settings.namespace());
        this.runtime = ControllerRuntime.builder("dns-" + settings.clusterId(), client)
                .liveObjects(settings.namespace(), settings.clusterId())
                .watch(imports).watch(gateways)
                .resync(settings.resync()).retry(Duration.ofSeconds(2))
                .build(this);
    }

    /**
     * Where the server's sockets are opened: a socket belongs to the network namespace of the thread
     * that opens it. In a pod that is the calling thread's ({@link #HERE}); a test that runs the agent
     * in its own JVM for a node of the lab opens them from a thread inside that node's namespace,
     * while the agent's API connections stay in the JVM's (where the API server listens).
     */
    @FunctionalInterface
    public interface ServerSockets {

        ServerSockets HERE = Callable::call;

        DnsServer open(Callable<DnsServer> bind) throws Exception;
    }

    /**
     * Watches the cluster, builds the first zone from the initial lists, then binds the server: it
     * answers from the start with what the API holds, never from an empty zone.
     */
    public DnsAgent start() {
        return start(ServerSockets.HERE);
    }

    /** The same, the server's sockets opened by {@code sockets}. */
    public DnsAgent start(ServerSockets sockets) {
        try {
            runtime.open();
            zone = new ClustersetZone(Optional.of(settings.clusterId()), LiveDiscovery.empty(settings.clusterId()));
            rebuild(runtime.snapshot());
            server = sockets.open(() -> DnsServer.start(settings.listen(), zone, settings.threads()));
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot serve DNS on " + settings.listen() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting the DNS server", e);
        } catch (RuntimeException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot serve DNS on " + settings.listen() + ": " + e.getMessage(), e);
        }
        LOG.info("dns {}: serving clusterset.local for the pods of cluster {} on {} (UDP and TCP)", settings.clusterId(), settings.clusterId(),
                address());
        runtime.start();
        return this;
    }

    /** Where the server listens (the bound port when {@code listen} asked for port 0). */
    public InetSocketAddress address() {
        return server.address();
    }

    /** The resolver the server answers from now, to explain an answer (which clusters were left out, and why). */
    public ServiceDiscovery discovery() {
        return zone.discovery();
    }

    /** How many rebuilds completed, for tests that wait for the zone to settle. */
    public long passes() {
        return runtime.passes();
    }

    @Override
    public Pass pass(Snapshot snapshot) {
        try {
            rebuild(snapshot);
        } catch (RuntimeException e) {
            // The planner refused the model: keep answering from the last zone; the next change tries again.
            LOG.warn("dns {}: cannot build the zone, answering from the previous one: {}", settings.clusterId(), e.getMessage());
        }
        return Pass.NOTHING;
    }

    /** The edge: the resolver is built purely ({@link LiveDiscovery}) and swapped in whole, so a query sees the old zone or the new one. */
    private void rebuild(Snapshot snapshot) {
        LiveDiscovery next = LiveDiscovery.of(snapshot.live(), snapshot.list(imports), snapshot.list(gateways));
        zone.replace(next.discovery());
        String line = next.describe();
        if (!line.equals(lastReported)) {
            LOG.info("dns {}: {}", settings.clusterId(), line);
            next.problems().forEach(p -> LOG.info("dns {}: left out {}", settings.clusterId(), p));
            lastReported = line;
        }
    }

    @Override
    public void stopped() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    public void close() {
        runtime.close();
    }
}
