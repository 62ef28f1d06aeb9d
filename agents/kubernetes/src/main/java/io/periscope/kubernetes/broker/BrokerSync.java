package io.periscope.kubernetes.broker;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.ClusterStatus;
import io.periscope.kubernetes.crd.PolicyStatus;
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
import io.periscope.model.net.Ipv4Prefix;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * <p>It also settles this cluster's GlobalCIDR with the broker ({@link GlobalCidrHandOut}): when the
 * broker's {@value GlobalnetInfo#CONFIG_MAP_NAME} enables Globalnet, the cluster's block is recorded
 * there first (an update carrying the resourceVersion read, so that two clusters joining at once
 * cannot both take one block: the loser's update is refused with a conflict and its next pass
 * decides again from the record as it now is), then written into the Cluster's {@code global_cidr},
 * and only then is the Cluster (and its Endpoints) published. Every cluster's sync writes the record,
 * and none needs to lead: the API server's compare-and-swap on the one object is the serialization.
 * The outcome is the {@value SubmarinerApi#GLOBAL_CIDR_CONDITION} condition in the Cluster's status;
 * a refused cluster stays off the broker.
 *
 * <p>Of the ClusterConnectionPolicies, only the singleton of seed 001
 * ({@value ClusterConnectionPolicies#WELL_KNOWN_NAME}) is synced; every other one, on the broker or
 * made on this cluster, gets {@value SubmarinerApi#ACCEPTED_CONDITION} False in its status, saying
 * which name to use.
 *
 * <p>It runs on the {@link ControllerRuntime} with the broker as its second API: nine informers
 * (the four kinds on each side, and the broker's ConfigMaps), no lease; its pass returns the copies
 * to write and delete, and the record and status writes.
 */
public final class BrokerSync implements Controller, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerSync.class);

    /** Marks, on the broker, which cluster an object came from. */
    public static final String ORIGIN_LABEL = "periscope.io/origin-cluster";

    /**
     * On this cluster's Cluster object: the GlobalCIDR the broker handed out and the sync wrote into
     * {@code global_cidr}, so that it is still told from a preconfigured one after the write.
     */
    public static final String HANDED_OUT_ANNOTATION = "periscope.io/global-cidr-handed-out";

    private final BrokerSyncSettings settings;
    private final Watch<SubmarinerCluster> localClusters;
    private final Watch<SubmarinerEndpoint> localEndpoints;
    private final Watch<ClusterConnectivityPolicyResource> localConnectivityPolicies;
    private final Watch<ClusterConnectionPolicies> localConnectionPolicies;
    private final Watch<SubmarinerCluster> brokerClusters;
    private final Watch<SubmarinerEndpoint> brokerEndpoints;
    private final Watch<ClusterConnectivityPolicyResource> brokerConnectivityPolicies;
    private final Watch<ClusterConnectionPolicies> brokerConnectionPolicies;
    private final Watch<ConfigMap> brokerConfigMaps;
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
        this.brokerConfigMaps = Watch.inNamespace(Api.BROKER, ConfigMap.class, settings.brokerNamespace());
        this.runtime = ControllerRuntime.builder("broker-sync-" + settings.clusterId(), local).broker(broker)
                .watch(localClusters).watch(localEndpoints).watch(localConnectivityPolicies).watch(localConnectionPolicies)
                .watch(brokerClusters).watch(brokerEndpoints).watch(brokerConnectivityPolicies).watch(brokerConnectionPolicies)
                .watch(brokerConfigMaps)
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
        Optional<SubmarinerCluster> own = s.list(localClusters).stream()
                .filter(c -> !synced(c) && settings.clusterId().equals(ClusterModelBuilder.clusterIdOf(c))).findFirst();
        boolean joined = own.map(c -> settleGlobalCidr(c, s, writes)).orElse(true);
        // Up: what this cluster owns, once its GlobalCIDR is settled with the broker.
        mirror(s.list(localClusters), s.list(brokerClusters), Api.BROKER, settings.brokerNamespace(),
                c -> joined && !synced(c) && settings.clusterId().equals(ClusterModelBuilder.clusterIdOf(c)),
                c -> settings.clusterId().equals(origin(c)), this::forBroker, SubmarinerCluster::new, writes);
        mirror(s.list(localEndpoints), s.list(brokerEndpoints), Api.BROKER, settings.brokerNamespace(),
                e -> joined && !synced(e) && e.getSpec() != null && settings.clusterId().equals(e.getSpec().clusterId()),
                e -> settings.clusterId().equals(origin(e)), this::forBroker, SubmarinerEndpoint::new, writes);
        // Down: everyone else's, and the policies (of the connection policies, the singleton only).
        mirror(s.list(brokerClusters), s.list(localClusters), Api.LOCAL, settings.localNamespace(),
                c -> !settings.clusterId().equals(ClusterModelBuilder.clusterIdOf(c)), BrokerSync::synced, this::forCluster, SubmarinerCluster::new,
                writes);
        mirror(s.list(brokerEndpoints), s.list(localEndpoints), Api.LOCAL, settings.localNamespace(),
                e -> e.getSpec() != null && !settings.clusterId().equals(e.getSpec().clusterId()), BrokerSync::synced, this::forCluster,
                SubmarinerEndpoint::new, writes);
        mirror(s.list(brokerConnectivityPolicies), s.list(localConnectivityPolicies), Api.LOCAL, settings.localNamespace(), p -> true,
                BrokerSync::synced, this::forCluster, ClusterConnectivityPolicyResource::new, writes);
        mirror(s.list(brokerConnectionPolicies), s.list(localConnectionPolicies), Api.LOCAL, settings.localNamespace(), BrokerSync::wellKnown,
                BrokerSync::synced, this::forCluster, ClusterConnectionPolicies::new, writes);
        reportIgnored(Api.BROKER, s.list(brokerConnectionPolicies), writes);
        reportIgnored(Api.LOCAL, s.list(localConnectionPolicies).stream().filter(p -> !synced(p)).toList(), writes);
        return Pass.writing(writes);
    }

    /**
     * The writes that settle this cluster's GlobalCIDR with the broker, as {@link GlobalCidrHandOut}
     * decides: the record first, then the Cluster's {@code global_cidr}, the condition throughout.
     *
     * @return whether the cluster may be published on the broker: Globalnet is off there, or the
     *         record holds the block its {@code global_cidr} names
     */
    private boolean settleGlobalCidr(SubmarinerCluster own, Snapshot s, List<Action> writes) {
        String where = "ConfigMap " + settings.brokerNamespace() + "/" + GlobalnetInfo.CONFIG_MAP_NAME;
        Optional<ConfigMap> configMap = s.list(brokerConfigMaps).stream()
                .filter(c -> GlobalnetInfo.CONFIG_MAP_NAME.equals(c.getMetadata().getName())).findFirst();
        List<String> declared = own.getSpec() == null ? List.of() : own.getSpec().globalCidr();
        GlobalCidrHandOut.Decision decision;
        Optional<GlobalnetInfo> info = Optional.empty();
        try {
            info = configMap.map(GlobalnetInfo::read);
            decision = GlobalCidrHandOut.decide(info, settings.clusterId(), declared, publishedGlobalCidrs(s.list(brokerClusters)), where);
        } catch (IllegalArgumentException e) {
            decision = new GlobalCidrHandOut.Refused("InvalidGlobalnetInfo", e.getMessage());
        }
        Optional<Condition> wanted;
        boolean joined;
        switch (decision) {
            case GlobalCidrHandOut.Off off -> {
                wanted = Optional.empty();
                joined = true;
            }
            case GlobalCidrHandOut.Record record -> {
                ConfigMap current = configMap.orElseThrow();
                ConfigMap updated = new ConfigMapBuilder(current)
                        .withData(info.orElseThrow().dataRecording(current.getData(), settings.clusterId(), record.cidr())).build();
                writes.add(new Action.Update(Api.BROKER, updated));
                // The condition waits for the record: it says what the broker holds, not what it was asked.
                return false;
            }
            case GlobalCidrHandOut.Held held -> {
                String cidr = held.cidr().toString();
                boolean handedOut = !held.preconfigured() || cidr.equals(annotation(own, HANDED_OUT_ANNOTATION));
                if (!held.preconfigured()) {
                    writes.add(new Action.Edit<>(SubmarinerCluster.class, settings.localNamespace(), own.getMetadata().getName(),
                            own.getMetadata().getUid(), c -> {
                        ClusterSpec spec = c.getSpec() != null ? c.getSpec()
                                : new ClusterSpec(settings.clusterId(), null, null, null, null, null, null, null, null, null);
                        c.setSpec(spec.withGlobalCidr(List.of(cidr)));
                        c.getMetadata().setAnnotations(withEntry(c.getMetadata().getAnnotations(), HANDED_OUT_ANNOTATION, cidr));
                        return c;
                    }));
                }
                wanted = Optional.of(condition(SubmarinerApi.GLOBAL_CIDR_CONDITION, "True", handedOut ? "Allocated" : "Preconfigured",
                        handedOut ? "the broker handed out " + cidr + " from the Globalnet CIDR " + info.orElseThrow().cidr() + " (blocks of "
                                + info.orElseThrow().clusterSize() + " addresses; " + where + ")"
                                : "the broker holds the preconfigured " + cidr + " for this cluster (" + where + ")"));
                joined = held.preconfigured();
            }
            case GlobalCidrHandOut.Refused refused -> {
                wanted = Optional.of(condition(SubmarinerApi.GLOBAL_CIDR_CONDITION, "False", refused.reason(),
                        refused.message() + ". Until then this cluster is not published on the broker."));
                joined = false;
            }
        }
        List<Condition> current = own.getStatus() == null ? List.of() : own.getStatus().conditions();
        conditionsWith(current, SubmarinerApi.GLOBAL_CIDR_CONDITION, wanted).ifPresent(conditions ->
                writes.add(new Action.EditStatus<>(SubmarinerCluster.class, settings.localNamespace(), own.getMetadata().getName(),
                        own.getMetadata().getUid(), c -> {
                    c.setStatus(new ClusterStatus(conditions));
                    return c;
                })));
        return joined;
    }

    /** Other clusters' GlobalCIDRs as their Cluster objects on the broker name them (unreadable ones left out). */
    private Map<String, Ipv4Prefix> publishedGlobalCidrs(List<SubmarinerCluster> onBroker) {
        Map<String, Ipv4Prefix> cidrs = new LinkedHashMap<>();
        for (SubmarinerCluster cluster : onBroker) {
            String id = ClusterModelBuilder.clusterIdOf(cluster);
            if (id.equals(settings.clusterId()) || cluster.getSpec() == null || cluster.getSpec().globalCidr().isEmpty()) {
                continue;
            }
            try {
                cidrs.put(id, Ipv4Prefix.parse(cluster.getSpec().globalCidr().getFirst()));
            } catch (IllegalArgumentException e) {
                LOG.warn("broker sync {}: Cluster {} on the broker has an unreadable global_cidr: {}", settings.clusterId(), id, e.getMessage());
            }
        }
        return cidrs;
    }

    /** {@value SubmarinerApi#ACCEPTED_CONDITION} False on each ClusterConnectionPolicies that is not the singleton, where it is not said yet. */
    private static void reportIgnored(Api api, List<ClusterConnectionPolicies> objects, List<Action> writes) {
        for (ClusterConnectionPolicies object : objects) {
            if (wellKnown(object)) {
                continue;
            }
            String name = object.getMetadata().getName();
            Condition wanted = condition(SubmarinerApi.ACCEPTED_CONDITION, "False", "NotTheWellKnownName", ClusterModelBuilder.ignoredBecause(name));
            List<Condition> current = object.getStatus() == null ? List.of() : object.getStatus().conditions();
            conditionsWith(current, SubmarinerApi.ACCEPTED_CONDITION, Optional.of(wanted)).ifPresent(conditions ->
                    writes.add(new Action.EditStatus<>(api, ClusterConnectionPolicies.class, object.getMetadata().getNamespace(), name,
                            object.getMetadata().getUid(), o -> {
                        o.setStatus(new PolicyStatus(conditions));
                        return o;
                    })));
        }
    }

    private static boolean wellKnown(ClusterConnectionPolicies object) {
        return ClusterConnectionPolicies.WELL_KNOWN_NAME.equals(object.getMetadata().getName());
    }

    private static Condition condition(String type, String status, String reason, String message) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message).build();
    }

    /**
     * {@code current} with the condition of {@code type} replaced by {@code wanted} (removed when
     * empty), or empty when that changes nothing, so that a settled sync writes nothing. The
     * transition time moves only when the status does.
     */
    static Optional<List<Condition>> conditionsWith(List<Condition> current, String type, Optional<Condition> wanted) {
        Optional<Condition> old = current.stream().filter(c -> type.equals(c.getType())).findFirst();
        if (old.isEmpty() && wanted.isEmpty()) {
            return Optional.empty();
        }
        if (old.isPresent() && wanted.isPresent() && Objects.equals(old.get().getStatus(), wanted.get().getStatus())
                && Objects.equals(old.get().getReason(), wanted.get().getReason()) && Objects.equals(old.get().getMessage(), wanted.get().getMessage())) {
            return Optional.empty();
        }
        List<Condition> updated = new ArrayList<>(current.stream().filter(c -> !type.equals(c.getType())).toList());
        wanted.ifPresent(w -> {
            boolean sameStatus = old.isPresent() && Objects.equals(old.get().getStatus(), w.getStatus());
            String time = sameStatus && old.get().getLastTransitionTime() != null ? old.get().getLastTransitionTime()
                    : Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
            updated.add(new ConditionBuilder(w).withLastTransitionTime(time).build());
        });
        return Optional.of(updated);
    }

    private static String annotation(HasMetadata object, String key) {
        return object.getMetadata().getAnnotations() == null ? null : object.getMetadata().getAnnotations().get(key);
    }

    private static Map<String, String> withEntry(Map<String, String> map, String key, String value) {
        Map<String, String> copy = new HashMap<>(map == null ? Map.of() : map);
        copy.put(key, value);
        return copy;
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
