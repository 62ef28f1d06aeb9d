package io.periscope.kubernetes.serviceexport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.periscope.kubernetes.broker.BrokerSync;
import io.periscope.kubernetes.broker.BrokerSyncSettings;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.watch.LevelLoop;
import io.periscope.kubernetes.watch.LiveObjectsInformers;
import io.periscope.kubernetes.watch.SignalOnChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Lighthouse's agent's job, on {@link BrokerSync}'s pattern: carries exported services between a
 * broker and this cluster with two fabric8 clients, so that every cluster's DNS server answers every
 * cluster's exports without Lighthouse installed. Up: for each ServiceExport of this cluster whose
 * Service exists, a ServiceImport and an EndpointSlice on the broker ({@link LighthouseObjects}),
 * with the addresses this cluster's own plan answers ({@link LocalExports}: global IPs under
 * Globalnet) and the readiness its own EndpointSlices give. Down: every other cluster's slices into
 * the services' namespaces, and one merged ServiceImport per service, which is what the DNS server
 * reads. Copies here carry {@value SubmarinerApi#SYNCED_FROM_BROKER_LABEL}, on the broker
 * {@value BrokerSync#ORIGIN_LABEL}; a copy whose original is gone is deleted, and an object that is
 * not a copy (one Lighthouse's own agent wrote, say) is left alone. Level-driven: each pass makes
 * both sides agree, whatever events were missed; a write that fails is retried after two seconds.
 */
public final class ServiceExportSync implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceExportSync.class);

    private final KubernetesClient local;
    private final KubernetesClient broker;
    private final BrokerSyncSettings settings;
    private final LevelLoop loop;
    private final List<AutoCloseable> watches = new ArrayList<>();
    private LiveObjectsInformers localObjects;
    private SharedIndexInformer<ServiceImport> localImports;
    private SharedIndexInformer<ServiceImport> brokerImports;
    private SharedIndexInformer<EndpointSlice> brokerSlices;
    /** What was last logged about objects left alone or namespaces missing, so that each is said once, not every resync. */
    private final Set<String> reported = new HashSet<>();
    private String lastSummary;

    public ServiceExportSync(KubernetesClient local, KubernetesClient broker, BrokerSyncSettings settings) {
        this.local = local;
        this.broker = broker;
        this.settings = settings;
        this.loop = new LevelLoop("service-export-sync-" + settings.clusterId(), this::pass, settings.resync(), Duration.ofSeconds(2));
    }

    /** Starts the informers, returns once their caches hold the initial lists, then starts the passes. */
    public ServiceExportSync start() {
        try {
            localObjects = keep(new LiveObjectsInformers(local, settings.localNamespace(), settings.clusterId(), loop::signal));
            localImports = keep(local.resources(ServiceImport.class).inAnyNamespace().inform(new SignalOnChange<>(loop::signal)));
            brokerImports = keep(broker.resources(ServiceImport.class).inNamespace(settings.brokerNamespace()).inform(new SignalOnChange<>(loop::signal)));
            brokerSlices = keep(broker.discovery().v1().endpointSlices().inNamespace(settings.brokerNamespace()).inform(new SignalOnChange<>(loop::signal)));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        loop.start();
        return this;
    }

    /** How many passes completed, for tests that wait for the sync to settle. */
    public long passes() {
        return loop.passes();
    }

    private void pass() {
        List<String> failed = new ArrayList<>();
        // Down first: a local model the planner refuses stops only the way up.
        List<ServiceImport> theirImports = brokerImports.getStore().list().stream().filter(this::fromAnotherCluster).toList();
        List<EndpointSlice> theirSlices = brokerSlices.getStore().list().stream().filter(this::fromAnotherCluster).toList();
        List<EndpointSlice> localSlices = localObjects.snapshot().endpointSlices();
        mirror(local, theirSlices.stream().flatMap(s -> LighthouseObjects.clusterSlice(s).stream()).toList(),
                localSlices.stream().filter(s -> LighthouseObjects.labels(s).containsKey(LighthouseApi.SOURCE_CLUSTER_LABEL)).toList(),
                ServiceExportSync::synced, ServiceExportSync::sameSlice, failed);
        Map<String, List<ServiceImport>> byService = new TreeMap<>();
        theirImports.forEach(i -> LighthouseObjects.exportedService(i).ifPresent(s -> byService.computeIfAbsent(s, k -> new ArrayList<>()).add(i)));
        List<ServiceImport> merged = new ArrayList<>();
        byService.forEach((service, imports) -> merged.add(LighthouseObjects.clusterImport(service.substring(0, service.indexOf('/')),
                service.substring(service.indexOf('/') + 1), imports)));
        mirror(local, merged, localImports.getStore().list(), ServiceExportSync::synced, ServiceExportSync::sameImport, failed);

        // Up: what this cluster exports.
        String published;
        try {
            List<LocalExport> exports = LocalExports.of(localObjects.snapshot());
            Predicate<HasMetadata> ours = o -> settings.clusterId().equals(LighthouseObjects.labels(o).get(BrokerSync.ORIGIN_LABEL));
            mirror(broker, exports.stream().map(e -> LighthouseObjects.brokerImport(settings.clusterId(), settings.brokerNamespace(), e)).toList(),
                    brokerImports.getStore().list(), ours, ServiceExportSync::sameImport, failed);
            mirror(broker, exports.stream().map(e -> LighthouseObjects.brokerSlice(settings.clusterId(), settings.brokerNamespace(), e)).toList(),
                    brokerSlices.getStore().list(), ours, ServiceExportSync::sameSlice, failed);
            published = exports.size() + " export(s) published";
        } catch (IllegalArgumentException | IllegalStateException e) {
            // The planner refused the model: the broker keeps what was published last; the next change tries again.
            published = "cannot plan this cluster's exports, the broker keeps the last ones (" + e.getMessage() + ")";
        }

        String summary = published + ", " + theirSlices.size() + " of other clusters imported (" + merged.size() + " service(s))";
        if (!summary.equals(lastSummary)) {
            LOG.info("service export sync {}: {}", settings.clusterId(), summary);
            lastSummary = summary;
        }
        if (!failed.isEmpty()) {
            throw new WritesFailed(failed);
        }
    }

    /**
     * Makes {@code client}'s objects equal to {@code wanted}: creates or updates each (an update
     * carries the cached resourceVersion, so a concurrent change is a conflict and the next pass
     * looks again), and deletes each copy ({@code isCopy}) that is not wanted.
     */
    private <T extends HasMetadata> void mirror(KubernetesClient client, List<T> wanted, List<T> existing, Predicate<? super T> isCopy,
                                                BiPredicate<T, T> same, List<String> failed) {
        Map<String, T> current = new LinkedHashMap<>();
        existing.forEach(e -> current.put(key(e), e));
        Set<String> keep = new HashSet<>();
        for (T object : wanted) {
            String key = key(object);
            keep.add(key);
            T now = current.get(key);
            if (now != null && same.test(now, object)) {
                continue;
            }
            if (now != null && !isCopy.test(now)) {
                once("left alone " + object.getKind() + " " + key, "{} {} exists and is not a copy of the broker's; leaving it alone", object.getKind(), key);
                continue;
            }
            try {
                if (now == null) {
                    client.resource(object).create();
                } else {
                    object.getMetadata().setResourceVersion(now.getMetadata().getResourceVersion());
                    client.resource(object).update();
                }
            } catch (KubernetesClientException e) {
                if (now == null && e.getCode() == 404) {
                    // The MCS API's namespace sameness: a service's namespace that this cluster lacks gets nothing until it exists.
                    once("no namespace " + key, "{} {} not written: namespace {} does not exist here; it is written once it does",
                            object.getKind(), key, object.getMetadata().getNamespace());
                } else {
                    failed.add((now == null ? "create " : "update ") + object.getKind() + " " + key + " (" + reason(e) + ")");
                }
            }
        }
        for (T object : existing) {
            if (isCopy.test(object) && !keep.contains(key(object))) {
                try {
                    client.resource(object).delete();
                } catch (KubernetesClientException e) {
                    failed.add("delete " + object.getKind() + " " + key(object) + " (" + reason(e) + ")");
                }
            }
        }
    }

    private boolean fromAnotherCluster(HasMetadata brokerObject) {
        Map<String, String> labels = LighthouseObjects.labels(brokerObject);
        String source = labels.get(LighthouseApi.SOURCE_CLUSTER_LABEL);
        return source != null && !source.equals(settings.clusterId());
    }

    private static boolean synced(HasMetadata object) {
        return LighthouseObjects.labels(object).containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);
    }

    private static boolean sameImport(ServiceImport a, ServiceImport b) {
        return Objects.equals(a.getMetadata().getLabels(), b.getMetadata().getLabels()) && Objects.equals(a.getSpec(), b.getSpec());
    }

    private static boolean sameSlice(EndpointSlice a, EndpointSlice b) {
        return Objects.equals(a.getMetadata().getLabels(), b.getMetadata().getLabels()) && Objects.equals(a.getAddressType(), b.getAddressType())
                && Objects.equals(list(a.getEndpoints()), list(b.getEndpoints())) && Objects.equals(list(a.getPorts()), list(b.getPorts()));
    }

    private static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static String key(HasMetadata object) {
        return object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
    }

    private static String reason(KubernetesClientException e) {
        return e.getCode() == 0 ? e.getMessage() : "HTTP " + e.getCode();
    }

    private void once(String what, String format, Object... args) {
        if (reported.add(what)) {
            Object[] all = new Object[args.length + 1];
            all[0] = settings.clusterId();
            System.arraycopy(args, 0, all, 1, args.length);
            LOG.info("service export sync {}: " + format, all);
        }
    }

    private <T extends AutoCloseable> T keep(T closeable) {
        watches.add(closeable);
        return closeable;
    }

    @Override
    public void close() {
        loop.close();
        for (AutoCloseable watch : watches) {
            try {
                watch.close();
            } catch (Exception e) {
                LOG.debug("closing a watch", e);
            }
        }
    }

    /** Some writes of a pass did not go through; the loop tries the whole pass again after its retry delay. */
    static final class WritesFailed extends RuntimeException {
        WritesFailed(List<String> failed) {
            super(failed.size() + " write(s) did not go through, retrying: " + String.join("; ", failed), null, false, false);
        }
    }
}
