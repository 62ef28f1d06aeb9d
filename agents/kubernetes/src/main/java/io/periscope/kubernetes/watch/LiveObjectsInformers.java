package io.periscope.kubernetes.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Informers for every kind {@link LiveObjects} holds; {@link #snapshot()} reads their caches. Each
 * add, update or delete calls {@code onChange}, which is meant to signal a {@link LevelLoop}: the
 * consumers are level-driven and re-read everything, so the event itself is not passed on.
 */
public final class LiveObjectsInformers implements AutoCloseable {

    private final String clusterId;
    private final List<SharedIndexInformer<?>> all = new ArrayList<>();
    private final SharedIndexInformer<Node> nodes;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Service> services;
    private final SharedIndexInformer<EndpointSlice> endpointSlices;
    private final SharedIndexInformer<ServiceExportResource> serviceExports;
    private final SharedIndexInformer<ClusterGlobalEgressIPResource> clusterGlobalEgressIPs;
    private final SharedIndexInformer<GlobalEgressIPResource> globalEgressIPs;
    private final SharedIndexInformer<GlobalIngressIPResource> globalIngressIPs;
    private final SharedIndexInformer<SubmarinerCluster> clusters;
    private final SharedIndexInformer<SubmarinerEndpoint> endpoints;
    private final SharedIndexInformer<ClusterConnectivityPolicyResource> connectivityPolicies;
    private final SharedIndexInformer<ClusterConnectionPolicies> connectionPolicies;
    private final SharedIndexInformer<Lease> leases;

    /** Starts every informer and returns once all caches hold the initial lists. */
    public LiveObjectsInformers(KubernetesClient client, String submarinerNamespace, String clusterId, Runnable onChange) {
        this.clusterId = clusterId;
        ResourceEventHandler<HasMetadata> handler = new ResourceEventHandler<>() {
            @Override
            public void onAdd(HasMetadata obj) {
                onChange.run();
            }

            @Override
            public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
                // A lease is renewed every retry period; only a change of holder matters (an
                // expiry is noticed by the consumer's periodic pass).
                if (oldObj instanceof Lease before && newObj instanceof Lease after
                        && java.util.Objects.equals(holder(before), holder(after))) {
                    return;
                }
                onChange.run();
            }

            @Override
            public void onDelete(HasMetadata obj, boolean deletedFinalStateUnknown) {
                onChange.run();
            }
        };
        try {
            nodes = keep(client.nodes().inform(handler(handler)));
            pods = keep(client.pods().inAnyNamespace().inform(handler(handler)));
            services = keep(client.services().inAnyNamespace().inform(handler(handler)));
            endpointSlices = keep(client.discovery().v1().endpointSlices().inAnyNamespace().inform(handler(handler)));
            serviceExports = keep(client.resources(ServiceExportResource.class).inAnyNamespace().inform(handler(handler)));
            clusterGlobalEgressIPs = keep(client.resources(ClusterGlobalEgressIPResource.class).inform(handler(handler)));
            globalEgressIPs = keep(client.resources(GlobalEgressIPResource.class).inAnyNamespace().inform(handler(handler)));
            globalIngressIPs = keep(client.resources(GlobalIngressIPResource.class).inAnyNamespace().inform(handler(handler)));
            clusters = keep(client.resources(SubmarinerCluster.class).inNamespace(submarinerNamespace).inform(handler(handler)));
            endpoints = keep(client.resources(SubmarinerEndpoint.class).inNamespace(submarinerNamespace).inform(handler(handler)));
            connectivityPolicies = keep(client.resources(ClusterConnectivityPolicyResource.class).inNamespace(submarinerNamespace).inform(handler(handler)));
            connectionPolicies = keep(client.resources(ClusterConnectionPolicies.class).inNamespace(submarinerNamespace).inform(handler(handler)));
            leases = keep(client.resources(Lease.class).inNamespace(submarinerNamespace).inform(handler(handler)));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static String holder(Lease lease) {
        return lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }

    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> ResourceEventHandler<T> handler(ResourceEventHandler<HasMetadata> handler) {
        return (ResourceEventHandler<T>) (ResourceEventHandler<?>) handler;
    }

    private <T> SharedIndexInformer<T> keep(SharedIndexInformer<T> informer) {
        all.add(informer);
        return informer;
    }

    /** The caches as they are now. */
    public LiveObjects snapshot() {
        Optional<java.util.Set<String>> holders = LiveObjectsReader.activeGateways(leases.getStore().list(), java.time.Instant.now());
        return new LiveObjects(clusterId, nodes.getStore().list(), pods.getStore().list(), services.getStore().list(),
                endpointSlices.getStore().list(), serviceExports.getStore().list(), clusterGlobalEgressIPs.getStore().list(),
                globalEgressIPs.getStore().list(), globalIngressIPs.getStore().list(), clusters.getStore().list(),
                endpoints.getStore().list(), connectivityPolicies.getStore().list(), connectionPolicies.getStore().list(), holders);
    }

    @Override
    public void close() {
        all.forEach(SharedIndexInformer::close);
    }
}
