package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads a cluster's {@link LiveObjects} with one list call per kind. A kind whose CRD is not
 * installed (a cluster without Lighthouse has no ServiceExport) reads as empty.
 */
public final class LiveObjectsReader {

    /** Upstream's lease for the single active gateway. */
    public static final String GATEWAY_LEASE = "submariner-gateway-lock";

    private LiveObjectsReader() {
    }

    /**
     * @param submarinerNamespace where the Cluster, Endpoint and policy objects and the gateway lease live
     * @param clusterId           the cluster's id: the namespace also holds the broker's copies of
     *                            remote clusters' Cluster objects, so it cannot be guessed from them
     */
    public static LiveObjects read(KubernetesClient client, String submarinerNamespace, String clusterId) {
        List<SubmarinerCluster> clusters = listOrEmpty(() -> client.resources(SubmarinerCluster.class).inNamespace(submarinerNamespace).list().getItems());
        List<Lease> leases = listOrEmpty(() -> client.resources(Lease.class).inNamespace(submarinerNamespace).list().getItems());
        return new LiveObjects(clusterId,
                client.nodes().list().getItems(),
                client.pods().inAnyNamespace().list().getItems(),
                client.services().inAnyNamespace().list().getItems(),
                listOrEmpty(() -> client.discovery().v1().endpointSlices().inAnyNamespace().list().getItems()),
                listOrEmpty(() -> client.resources(ServiceExportResource.class).inAnyNamespace().list().getItems()),
                listOrEmpty(() -> client.resources(ClusterGlobalEgressIPResource.class).list().getItems()),
                listOrEmpty(() -> client.resources(GlobalEgressIPResource.class).inAnyNamespace().list().getItems()),
                listOrEmpty(() -> client.resources(GlobalIngressIPResource.class).inAnyNamespace().list().getItems()),
                clusters,
                listOrEmpty(() -> client.resources(SubmarinerEndpoint.class).inNamespace(submarinerNamespace).list().getItems()),
                listOrEmpty(() -> client.resources(ClusterConnectivityPolicyResource.class).inNamespace(submarinerNamespace).list().getItems()),
                listOrEmpty(() -> client.resources(ClusterConnectionPolicies.class).inNamespace(submarinerNamespace).list().getItems()),
                activeGateways(leases, java.time.Instant.now()),
                listOrEmpty(() -> client.resources(Gateway.class).inNamespace(submarinerNamespace).list().getItems()));
    }

    /** The lease of the single active gateway, or with multiple active gateways each gateway's own. */
    public static String gatewayLease(boolean multiActive, String node) {
        return multiActive ? GATEWAY_LEASE + "-" + node : GATEWAY_LEASE;
    }

    /**
     * The holders of unexpired gateway leases; empty when there is no gateway lease at all. A
     * released lease (no holder) or one not renewed within its duration holds nobody.
     */
    public static Optional<java.util.Set<String>> activeGateways(List<Lease> leases, java.time.Instant now) {
        List<Lease> gatewayLeases = leases.stream().filter(l -> l.getMetadata().getName().startsWith(GATEWAY_LEASE)).toList();
        if (gatewayLeases.isEmpty()) {
            return Optional.empty();
        }
        java.util.Set<String> holders = new java.util.TreeSet<>();
        for (Lease lease : gatewayLeases) {
            var spec = lease.getSpec();
            if (spec == null || spec.getHolderIdentity() == null || spec.getHolderIdentity().isBlank()) {
                continue;
            }
            boolean fresh = spec.getRenewTime() == null || spec.getLeaseDurationSeconds() == null
                    || spec.getRenewTime().toInstant().plusSeconds(spec.getLeaseDurationSeconds()).isAfter(now);
            if (fresh) {
                holders.add(spec.getHolderIdentity());
            }
        }
        return Optional.of(holders);
    }

    private static <T extends HasMetadata> List<T> listOrEmpty(Supplier<List<T>> list) {
        try {
            return list.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    private static <T> Optional<T> optional(Supplier<T> get) {
        try {
            return Optional.ofNullable(get.get());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 403) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
