package io.periscope.kubernetes.dns;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.periscope.agent.dns.ClustersetZone;
import io.periscope.agent.dns.DnsServer;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.watch.LevelLoop;
import io.periscope.kubernetes.watch.LiveObjectsInformers;
import io.periscope.kubernetes.watch.SignalOnChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * The cluster's DNS server for {@code clusterset.local}, fed by informers: every change to the
 * objects {@link LiveDiscovery} reads wakes one worker ({@link LevelLoop}), which rebuilds the whole
 * resolver from the caches and swaps it into the {@link ClustersetZone} the server answers from.
 * Level-driven and coalesced: a burst of events is one rebuild, a missed event is repaired by the
 * next one (at least every resync). It only reads the API; any number of replicas can serve.
 */
public final class DnsAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DnsAgent.class);

    private final KubernetesClient client;
    private final DnsAgentSettings settings;
    private final LevelLoop loop;
    private LiveObjectsInformers informers;
    private SharedIndexInformer<ServiceImport> imports;
    private SharedIndexInformer<Gateway> gateways;
    private ClustersetZone zone;
    private DnsServer server;
    private String lastReported;

    public DnsAgent(KubernetesClient client, DnsAgentSettings settings) {
        this.client = client;
        this.settings = settings;
        this.loop = new LevelLoop("dns-" + settings.clusterId(), this::pass, settings.resync(), Duration.ofSeconds(2));
    }

    /**
     * Watches the cluster, builds the first zone from the initial lists, then binds the server: it
     * answers from the start with what the API holds, never from an empty zone.
     */
    public DnsAgent start() {
        try {
            informers = new LiveObjectsInformers(client, settings.namespace(), settings.clusterId(), loop::signal);
            imports = client.resources(ServiceImport.class).inAnyNamespace().inform(new SignalOnChange<>(loop::signal));
            gateways = client.resources(Gateway.class).inNamespace(settings.namespace()).inform(new SignalOnChange<>(loop::signal));
            zone = new ClustersetZone(Optional.of(settings.clusterId()), LiveDiscovery.empty(settings.clusterId()));
            rebuild();
            server = DnsServer.start(settings.listen(), zone, settings.threads());
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
        }
        LOG.info("dns {}: serving clusterset.local for the pods of cluster {} on {} (UDP and TCP)", settings.clusterId(), settings.clusterId(),
                address());
        loop.start();
        return this;
    }

    /** Where the server listens (the bound port when {@code listen} asked for port 0). */
    public InetSocketAddress address() {
        return server.address();
    }

    /** The resolver the server answers from now, to explain an answer (which clusters were left out, and why). */
    public io.periscope.plan.dns.ServiceDiscovery discovery() {
        return zone.discovery();
    }

    /** How many rebuilds completed, for tests that wait for the zone to settle. */
    public long passes() {
        return loop.passes();
    }

    private void pass() {
        try {
            rebuild();
        } catch (RuntimeException e) {
            // The planner refused the model: keep answering from the last zone; the next change tries again.
            LOG.warn("dns {}: cannot build the zone, answering from the previous one: {}", settings.clusterId(), e.getMessage());
        }
    }

    private void rebuild() {
        LiveDiscovery next = LiveDiscovery.of(informers.snapshot(), imports.getStore().list(), gateways.getStore().list());
        zone.replace(next.discovery());
        String line = next.describe();
        if (!line.equals(lastReported)) {
            LOG.info("dns {}: {}", settings.clusterId(), line);
            next.problems().forEach(p -> LOG.info("dns {}: left out {}", settings.clusterId(), p));
            lastReported = line;
        }
    }

    @Override
    public void close() {
        loop.close();
        if (server != null) {
            server.close();
        }
        if (imports != null) {
            imports.close();
        }
        if (gateways != null) {
            gateways.close();
        }
        if (informers != null) {
            informers.close();
        }
    }
}
