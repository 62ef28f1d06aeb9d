package io.periscope.kubernetes.serviceexport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.kubernetes.broker.BrokerSync;
import io.periscope.kubernetes.broker.BrokerSyncSettings;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.runtime.Action;
import io.periscope.kubernetes.runtime.Api;
import io.periscope.kubernetes.runtime.Controller;
import io.periscope.kubernetes.runtime.ControllerRuntime;
import io.periscope.kubernetes.runtime.Pass;
import io.periscope.kubernetes.runtime.Snapshot;
import io.periscope.kubernetes.runtime.Watch;
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
 *
 * <p>It runs on the {@link ControllerRuntime} with the broker as its second API (the cluster's
 * objects, its ServiceImports, and the broker's ServiceImports and EndpointSlices), no lease; its
 * pass returns the creates, updates and deletes.
 */
public final class ServiceExportSync implements Controller, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceExportSync.class);

    private final BrokerSyncSettings settings;
    private final Watch<ServiceImport> localImports = Watch.everywhere(Api.LOCAL, ServiceImport.class);
    private final Watch<ServiceImport> brokerImports;
    private final Watch<EndpointSlice> brokerSlices;
    private final ControllerRuntime runtime;
    /** What was last logged about objects left alone or namespaces missing, so that each is said once, not every resync. */
    private final Set<String> reported = new HashSet<>();
    private String lastSummary;

    public ServiceExportSync(KubernetesClient local, KubernetesClient broker, BrokerSyncSettings settings) {
        this.settings = settings;
        this.brokerImports = Watch.inNamespace(Api.BROKER, ServiceImport.class, settings.brokerNamespace());
        this.brokerSlices = Watch.inNamespace(Api.BROKER, EndpointSlice.class, settings.brokerNamespace());
        this.runtime = ControllerRuntime.builder("service-export-sync-" + settings.clusterId(), local).broker(broker)
                .liveObjects(settings.localNamespace(), settings.clusterId())
                .watch(localImports).watch(brokerImports).watch(brokerSlices)
                .resync(settings.resync()).retry(Duration.ofSeconds(2))
                .build(this);
    }

    /** Starts the informers, returns once their caches hold the initial lists, then starts the passes. */
    public ServiceExportSync start() {
        runtime.start();
        return this;
    }

    /** How many passes completed, for tests that wait for the sync to settle. */
    public long passes() {
        return runtime.passes();
    }

    @Override
    public Pass pass(Snapshot s) {
        List<Action> writes = new ArrayList<>();
        // Down first: a local model the planner refuses stops only the way up.
        List<ServiceImport> theirImports = s.list(brokerImports).stream().filter(this::fromAnotherCluster).toList();
        List<EndpointSlice> theirSlices = s.list(brokerSlices).stream().filter(this::fromAnotherCluster).toList();
        List<EndpointSlice> localSlices = s.live().endpointSlices();
        mirror(Api.LOCAL, theirSlices.stream().flatMap(slice -> LighthouseObjects.clusterSlice(slice).stream()).toList(),
                localSlices.stream().filter(slice -> LighthouseObjects.labels(slice).containsKey(LighthouseApi.SOURCE_CLUSTER_LABEL)).toList(),
                ServiceExportSync::synced, ServiceExportSync::sameSlice, writes);
        Map<String, List<ServiceImport>> byService = new TreeMap<>();
        theirImports.forEach(i -> LighthouseObjects.exportedService(i)
                .ifPresent(service -> byService.computeIfAbsent(service, k -> new ArrayList<>()).add(i)));
        List<ServiceImport> merged = new ArrayList<>();
        byService.forEach((service, imports) -> merged.add(LighthouseObjects.clusterImport(service.substring(0, service.indexOf('/')),
                service.substring(service.indexOf('/') + 1), imports)));
        mirror(Api.LOCAL, merged, s.list(localImports), ServiceExportSync::synced, ServiceExportSync::sameImport, writes);

        // Up: what this cluster exports.
        String published;
        try {
            List<LocalExport> exports = LocalExports.of(s.live());
            Predicate<HasMetadata> ours = o -> settings.clusterId().equals(LighthouseObjects.labels(o).get(BrokerSync.ORIGIN_LABEL));
            mirror(Api.BROKER, exports.stream().map(e -> LighthouseObjects.brokerImport(settings.clusterId(), settings.brokerNamespace(), e)).toList(),
                    s.list(brokerImports), ours, ServiceExportSync::sameImport, writes);
            mirror(Api.BROKER, exports.stream().map(e -> LighthouseObjects.brokerSlice(settings.clusterId(), settings.brokerNamespace(), e)).toList(),
                    s.list(brokerSlices), ours, ServiceExportSync::sameSlice, writes);
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
        return Pass.writing(writes);
    }

    /**
     * A create refused with 404: the MCS API's namespace sameness, a service's namespace that the
     * cluster lacks gets nothing until it exists (said once). Any other refusal fails the pass after
     * its other writes, and the whole pass runs again after the retry delay.
     */
    @Override
    public Refused refused(Action action, KubernetesClientException refusal) {
        if (action instanceof Action.Create create && refusal.getCode() == 404) {
            HasMetadata object = create.object();
            once("no namespace " + key(object), "{} {} not written: namespace {} does not exist here; it is written once it does",
                    object.getKind(), key(object), object.getMetadata().getNamespace());
            return Refused.IGNORE;
        }
        return Refused.RETRY_LATER;
    }

    /**
     * Makes {@code api}'s objects equal to {@code wanted}: creates or updates each (an update
     * carries the cached resourceVersion, so a concurrent change is a conflict and the next pass
     * looks again), and deletes each copy ({@code isCopy}) that is not wanted.
     */
    private <T extends HasMetadata> void mirror(Api api, List<T> wanted, List<T> existing, Predicate<? super T> isCopy, BiPredicate<T, T> same,
                                                List<Action> writes) {
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
            if (now == null) {
                writes.add(new Action.Create(api, object));
            } else {
                object.getMetadata().setResourceVersion(now.getMetadata().getResourceVersion());
                writes.add(new Action.Update(api, object));
            }
        }
        for (T object : existing) {
            if (isCopy.test(object) && !keep.contains(key(object))) {
                writes.add(new Action.Delete(api, object));
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

    private void once(String what, String format, Object... args) {
        if (reported.add(what)) {
            Object[] all = new Object[args.length + 1];
            all[0] = settings.clusterId();
            System.arraycopy(args, 0, all, 1, args.length);
            LOG.info("service export sync {}: " + format, all);
        }
    }

    @Override
    public void close() {
        runtime.close();
    }
}
