package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicy;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIP;
import io.periscope.kubernetes.crd.GlobalEgressIP;
import io.periscope.kubernetes.crd.GlobalIngressIP;
import io.periscope.kubernetes.crd.ServiceExport;
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
        Optional<String> leaseHolder = optional(() -> client.resources(Lease.class).inNamespace(submarinerNamespace).withName(GATEWAY_LEASE).get())
                .map(Lease::getSpec).map(s -> s.getHolderIdentity()).filter(h -> !h.isBlank());
        return new LiveObjects(clusterId,
                client.nodes().list().getItems(),
                client.pods().inAnyNamespace().list().getItems(),
                client.services().inAnyNamespace().list().getItems(),
                listOrEmpty(() -> client.discovery().v1().endpointSlices().inAnyNamespace().list().getItems()),
                listOrEmpty(() -> client.resources(ServiceExport.class).inAnyNamespace().list().getItems()),
                listOrEmpty(() -> client.resources(ClusterGlobalEgressIP.class).list().getItems()),
                listOrEmpty(() -> client.resources(GlobalEgressIP.class).inAnyNamespace().list().getItems()),
                listOrEmpty(() -> client.resources(GlobalIngressIP.class).inAnyNamespace().list().getItems()),
                clusters,
                listOrEmpty(() -> client.resources(SubmarinerEndpoint.class).inNamespace(submarinerNamespace).list().getItems()),
                listOrEmpty(() -> client.resources(ClusterConnectivityPolicy.class).inNamespace(submarinerNamespace).list().getItems()),
                listOrEmpty(() -> client.resources(ClusterConnectionPolicies.class).inNamespace(submarinerNamespace).list().getItems()),
                leaseHolder);
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
