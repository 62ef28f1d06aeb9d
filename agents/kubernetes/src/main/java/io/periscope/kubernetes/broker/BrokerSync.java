package io.periscope.kubernetes.broker;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Carries Clusters, Endpoints and the connectivity and connection policies between a broker (just
 * another Kubernetes API) and this cluster, with two fabric8 clients. Up: this cluster's own
 * Cluster object and its gateways' Endpoints. Down: every other cluster's, and the policies, which
 * are kept on the broker. Copies carry {@value SubmarinerApi#SYNCED_FROM_BROKER_LABEL} so that the
 * agents can tell them from the cluster's own objects, and a copy whose original is gone is deleted.
 * Level-driven like the other controllers: each pass makes both sides agree, whatever events were missed.
 *
 * <p>It runs on the {@link ControllerRuntime} with the broker as its second API: eight informers
 * (the four kinds on each side), no lease; its pass returns the copies to write and delete.
 */
public final class BrokerSync implements Controller, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerSync.class);

    /** Marks, on the broker, which cluster an object came from. */
    public static final String ORIGIN_LABEL = "periscope.io/origin-cluster";

    private final BrokerSyncSettings settings;
    private final Watch<SubmarinerCluster> localClusters;
    private final Watch<SubmarinerEndpoint> localEndpoints;
    private final Watch<ClusterConnectivityPolicyResource> localConnectivityPolicies;
    private final Watch<ClusterConnectionPolicies> localConnectionPolicies;
    private final Watch<SubmarinerCluster> brokerClusters;
    private final Watch<SubmarinerEndpoint> brokerEndpoints;
    private final Watch<ClusterConnectivityPolicyResource> brokerConnectivityPolicies;
    private final Watch<ClusterConnectionPolicies> brokerConnectionPolicies;
    private final ControllerRuntime runtime;

    public BrokerSync(KubernetesClient local, KubernetesClient broker, BrokerSyncSettings settings) {
        this.settings = settings;
        this.localClusters = Watch.inNamespace(Api.LOCAL, SubmarinerCluster.class, settings.localNamespace());
        this.localEndpoints = Watch.inNamespace(Api.LOCAL, SubmarinerEndpoint.class, settings.localNamespace());
        this.localConnectivityPolicies = Watch.inNamespace(Api.LOCAL, ClusterConnectivityPolicyResource.class, settings.localNamespace());
        this.localConnectionPolicies = Watch.inNamespace(Api.LOCAL, ClusterConnectionPolicies.class, settings.localNamespace());
        this.brokerClusters = Watch.inNamespace(Api.BROKER, SubmarinerCluster.class, settings.brokerNamespace());
        this.brokerEndpoints = Watch.inNamespace(Api.BROKER, SubmarinerEndpoint.class, settings.brokerNamespace());
        this.brokerConnectivityPolicies = Watch.inNamespace(Api.BROKER, ClusterConnectivityPolicyResource.class, settings.brokerNamespace());
        this.brokerConnectionPolicies = Watch.inNamespace(Api.BROKER, ClusterConnectionPolicies.class, settings.brokerNamespace());
        this.runtime = ControllerRuntime.builder("broker-sync-" + settings.clusterId(), local).broker(broker)
                .watch(localClusters).watch(localEndpoints).watch(localConnectivityPolicies).watch(localConnectionPolicies)
                .watch(brokerClusters).watch(brokerEndpoints).watch(brokerConnectivityPolicies).watch(brokerConnectionPolicies)
                .resync(settings.resync()).retry(Duration.ofSeconds(2))
                .build(this);
    }

    public BrokerSync start() {
        runtime.start();
        return this;
    }

    @Override
    public Pass pass(Snapshot s) {
        List<Action> writes = new ArrayList<>();
        // Up: what this cluster owns.
        mirror(s.list(localClusters), s.list(brokerClusters), Api.BROKER, settings.brokerNamespace(),
                c -> !synced(c) && settings.clusterId().equals(ClusterModelBuilder.clusterIdOf(c)),
                c -> settings.clusterId().equals(origin(c)), this::forBroker, SubmarinerCluster::new, writes);
        mirror(s.list(localEndpoints), s.list(brokerEndpoints), Api.BROKER, settings.brokerNamespace(),
                e -> !synced(e) && e.getSpec() != null && settings.clusterId().equals(e.getSpec().clusterId()),
                e -> settings.clusterId().equals(origin(e)), this::forBroker, SubmarinerEndpoint::new, writes);
        // Down: everyone else's, and the policies.
        mirror(s.list(brokerClusters), s.list(localClusters), Api.LOCAL, settings.localNamespace(),
                c -> !settings.clusterId().equals(ClusterModelBuilder.clusterIdOf(c)), BrokerSync::synced, this::forCluster, SubmarinerCluster::new,
                writes);
        mirror(s.list(brokerEndpoints), s.list(localEndpoints), Api.LOCAL, settings.localNamespace(),
                e -> e.getSpec() != null && !settings.clusterId().equals(e.getSpec().clusterId()), BrokerSync::synced, this::forCluster,
                SubmarinerEndpoint::new, writes);
        mirror(s.list(brokerConnectivityPolicies), s.list(localConnectivityPolicies), Api.LOCAL, settings.localNamespace(), p -> true,
                BrokerSync::synced, this::forCluster, ClusterConnectivityPolicyResource::new, writes);
        mirror(s.list(brokerConnectionPolicies), s.list(localConnectionPolicies), Api.LOCAL, settings.localNamespace(), p -> true,
                BrokerSync::synced, this::forCluster, ClusterConnectionPolicies::new, writes);
        return Pass.writing(writes);
    }

    /**
     * Makes the copies on the target side equal to the sources: creates or updates each source the
     * filter selects, and deletes each copy (as {@code isCopy} recognises them) without a source.
     */
    private <T extends CustomResource<?, ?>> void mirror(List<T> sources, List<T> targets, Api api, String namespace, Predicate<T> selected,
                                                       Predicate<T> isCopy, Function<Map<String, String>, Map<String, String>> labels,
                                                       Supplier<T> fresh, List<Action> writes) {
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
            writes.add(new Action.CreateOrUpdate(api, copy));
        }
        for (T target : targets) {
            if (isCopy.test(target) && !wanted.contains(target.getMetadata().getName())) {
                writes.add(new Action.Delete(api, target));
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

    @Override
    public void close() {
        runtime.close();
    }
}
