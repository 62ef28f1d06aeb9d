package io.periscope.kubernetes.broker;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.watch.LevelLoop;
import io.periscope.kubernetes.watch.SignalOnChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Carries Clusters, Endpoints and the connectivity and connection policies between a broker (just
 * another Kubernetes API) and this cluster, with two fabric8 clients. Up: this cluster's own
 * Cluster object and its gateways' Endpoints. Down: every other cluster's, and the policies, which
 * are kept on the broker. Copies carry {@value SubmarinerApi#SYNCED_FROM_BROKER_LABEL} so that the
 * agents can tell them from the cluster's own objects, and a copy whose original is gone is deleted.
 * Level-driven like the other controllers: each pass makes both sides agree, whatever events were missed.
 */
public final class BrokerSync implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerSync.class);

    /** Marks, on the broker, which cluster an object came from. */
    public static final String ORIGIN_LABEL = "periscope.io/origin-cluster";

    private final KubernetesClient local;
    private final KubernetesClient broker;
    private final BrokerSyncSettings settings;
    private final LevelLoop loop;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private final Map<String, SharedIndexInformer<? extends HasMetadata>> caches = new HashMap<>();

    public BrokerSync(KubernetesClient local, KubernetesClient broker, BrokerSyncSettings settings) {
        this.local = local;
        this.broker = broker;
        this.settings = settings;
        this.loop = new LevelLoop("broker-sync-" + settings.clusterId(), this::pass, settings.resync(), Duration.ofSeconds(2));
    }

    public BrokerSync start() {
        watch("local/Cluster", local, SubmarinerCluster.class, settings.localNamespace());
        watch("local/Endpoint", local, SubmarinerEndpoint.class, settings.localNamespace());
        watch("local/ClusterConnectivityPolicy", local, ClusterConnectivityPolicyResource.class, settings.localNamespace());
        watch("local/ClusterConnectionPolicies", local, ClusterConnectionPolicies.class, settings.localNamespace());
        watch("broker/Cluster", broker, SubmarinerCluster.class, settings.brokerNamespace());
        watch("broker/Endpoint", broker, SubmarinerEndpoint.class, settings.brokerNamespace());
        watch("broker/ClusterConnectivityPolicy", broker, ClusterConnectivityPolicyResource.class, settings.brokerNamespace());
        watch("broker/ClusterConnectionPolicies", broker, ClusterConnectionPolicies.class, settings.brokerNamespace());
        loop.start();
        return this;
    }

    private <T extends HasMetadata> void watch(String name, KubernetesClient client, Class<T> kind, String namespace) {
        SharedIndexInformer<T> informer = client.resources(kind).inNamespace(namespace).inform(new SignalOnChange<>(loop::signal));
        informers.add(informer);
        caches.put(name, informer);
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> List<T> cached(String name) {
        return ((SharedIndexInformer<T>) caches.get(name)).getStore().list();
    }

    private void pass() {
        // Up: what this cluster owns.
        this.<SubmarinerCluster>mirror(cached("local/Cluster"), cached("broker/Cluster"), broker, settings.brokerNamespace(),
                c -> !synced(c) && settings.clusterId().equals(ClusterModelBuilder.clusterIdOf(c)),
                c -> settings.clusterId().equals(origin(c)), this::forBroker, SubmarinerCluster::new);
        this.<SubmarinerEndpoint>mirror(cached("local/Endpoint"), cached("broker/Endpoint"), broker, settings.brokerNamespace(),
                e -> !synced(e) && e.getSpec() != null && settings.clusterId().equals(e.getSpec().clusterId()),
                e -> settings.clusterId().equals(origin(e)), this::forBroker, SubmarinerEndpoint::new);
        // Down: everyone else's, and the policies.
        this.<SubmarinerCluster>mirror(cached("broker/Cluster"), cached("local/Cluster"), local, settings.localNamespace(),
                c -> !settings.clusterId().equals(ClusterModelBuilder.clusterIdOf(c)), BrokerSync::synced, this::forCluster, SubmarinerCluster::new);
        this.<SubmarinerEndpoint>mirror(cached("broker/Endpoint"), cached("local/Endpoint"), local, settings.localNamespace(),
                e -> e.getSpec() != null && !settings.clusterId().equals(e.getSpec().clusterId()), BrokerSync::synced, this::forCluster,
                SubmarinerEndpoint::new);
        this.<ClusterConnectivityPolicyResource>mirror(cached("broker/ClusterConnectivityPolicy"), cached("local/ClusterConnectivityPolicy"), local,
                settings.localNamespace(), p -> true, BrokerSync::synced, this::forCluster, ClusterConnectivityPolicyResource::new);
        this.<ClusterConnectionPolicies>mirror(cached("broker/ClusterConnectionPolicies"), cached("local/ClusterConnectionPolicies"), local,
                settings.localNamespace(), p -> true, BrokerSync::synced, this::forCluster, ClusterConnectionPolicies::new);
    }

    /**
     * Makes the copies on the target side equal to the sources: creates or updates each source the
     * filter selects, and deletes each copy (as {@code isCopy} recognises them) without a source.
     */
    private <T extends CustomResource<?, ?>> void mirror(List<T> sources, List<T> targets, KubernetesClient client, String namespace,
                                                       Predicate<T> selected, Predicate<T> isCopy, java.util.function.Function<Map<String, String>, Map<String, String>> labels,
                                                       Supplier<T> fresh) {
        Map<String, T> existing = new HashMap<>();
        targets.forEach(t -> existing.put(t.getMetadata().getName(), t));
        List<String> wanted = new ArrayList<>();
        for (T source : sources) {
            if (!selected.test(source)) {
                continue;
            }
            String name = source.getMetadata().getName();
            wanted.add(name);
            Map<String, String> copyLabels = labels.apply(source.getMetadata().getLabels() == null ? Map.of() : source.getMetadata().getLabels());
            T current = existing.get(name);
            if (current != null && Objects.equals(current.getSpec(), source.getSpec()) && Objects.equals(current.getMetadata().getLabels(), copyLabels)) {
                continue;
            }
            if (current != null && !isCopy.test(current)) {
                LOG.warn("broker sync {}: {} {}/{} exists and is not a copy; leaving it alone", settings.clusterId(), source.getKind(), namespace, name);
                continue;
            }
            T copy = fresh.get();
            copy.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withLabels(copyLabels).build());
            copySpec(source, copy);
            run(() -> client.resource(copy).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update), "write " + source.getKind() + " " + name);
        }
        for (T target : targets) {
            if (isCopy.test(target) && !wanted.contains(target.getMetadata().getName())) {
                run(() -> client.resource(target).delete(), "delete " + target.getKind() + " " + target.getMetadata().getName());
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void copySpec(CustomResource source, CustomResource copy) {
        copy.setSpec(source.getSpec());
    }

    private Map<String, String> forBroker(Map<String, String> labels) {
        Map<String, String> copy = new HashMap<>(labels);
        copy.put(ORIGIN_LABEL, settings.clusterId());
        return copy;
    }

    private Map<String, String> forCluster(Map<String, String> labels) {
        Map<String, String> copy = new HashMap<>(labels);
        copy.remove(ORIGIN_LABEL);
        copy.put(SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true");
        return copy;
    }

    private static boolean synced(HasMetadata object) {
        return object.getMetadata().getLabels() != null && object.getMetadata().getLabels().containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL);
    }

    private static String origin(HasMetadata object) {
        return object.getMetadata().getLabels() == null ? null : object.getMetadata().getLabels().get(ORIGIN_LABEL);
    }

    private void run(Runnable call, String what) {
        try {
            call.run();
        } catch (KubernetesClientException e) {
            LOG.info("broker sync {}: {} did not go through ({}); retrying", settings.clusterId(), what, e.getCode() == 0 ? e.getMessage() : "HTTP " + e.getCode());
            loop.signal();
        }
    }

    @Override
    public void close() {
        loop.close();
        informers.forEach(SharedIndexInformer::close);
    }
}
