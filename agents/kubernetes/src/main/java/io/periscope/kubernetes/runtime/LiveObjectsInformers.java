package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.Gateway;
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
 * add, update or delete calls {@code onChange} ({@link SignalOnChange}), which signals the runtime's
 * {@link LevelLoop}: the controllers are level-driven and re-read everything, so the event itself is not passed on.
 */
final class LiveObjectsInformers implements AutoCloseable {

    private final String clusterId;
    private final List<SharedIndexInformer<?>> all = new ArrayList<>();
    private final List<UnseenWrites.Watched> watched = new ArrayList<>();
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
    private final SharedIndexInformer<Gateway> gateways;

    /** Starts every informer and returns once all caches hold the initial lists. */
    LiveObjectsInformers(KubernetesClient client, String submarinerNamespace, String clusterId, Runnable onChange) {
        this.clusterId = clusterId;
        try {
            nodes = keep(Node.class, Optional.empty(), client.nodes().inform(new SignalOnChange<>(onChange)));
            pods = keep(Pod.class, Optional.empty(), client.pods().inAnyNamespace().inform(new SignalOnChange<>(onChange)));
            services = keep(Service.class, Optional.empty(), client.services().inAnyNamespace().inform(new SignalOnChange<>(onChange)));
            endpointSlices = keep(EndpointSlice.class, Optional.empty(),
                    client.discovery().v1().endpointSlices().inAnyNamespace().inform(new SignalOnChange<>(onChange)));
            serviceExports = keep(ServiceExportResource.class, Optional.empty(),
                    client.resources(ServiceExportResource.class).inAnyNamespace().inform(new SignalOnChange<>(onChange)));
            clusterGlobalEgressIPs = keep(ClusterGlobalEgressIPResource.class, Optional.empty(),
                    client.resources(ClusterGlobalEgressIPResource.class).inform(new SignalOnChange<>(onChange)));
            globalEgressIPs = keep(GlobalEgressIPResource.class, Optional.empty(),
                    client.resources(GlobalEgressIPResource.class).inAnyNamespace().inform(new SignalOnChange<>(onChange)));
            globalIngressIPs = keep(GlobalIngressIPResource.class, Optional.empty(),
                    client.resources(GlobalIngressIPResource.class).inAnyNamespace().inform(new SignalOnChange<>(onChange)));
            clusters = keep(SubmarinerCluster.class, Optional.of(submarinerNamespace),
                    client.resources(SubmarinerCluster.class).inNamespace(submarinerNamespace).inform(new SignalOnChange<>(onChange)));
            endpoints = keep(SubmarinerEndpoint.class, Optional.of(submarinerNamespace),
                    client.resources(SubmarinerEndpoint.class).inNamespace(submarinerNamespace).inform(new SignalOnChange<>(onChange)));
            connectivityPolicies = keep(ClusterConnectivityPolicyResource.class, Optional.of(submarinerNamespace),
                    client.resources(ClusterConnectivityPolicyResource.class).inNamespace(submarinerNamespace).inform(new SignalOnChange<>(onChange)));
            connectionPolicies = keep(ClusterConnectionPolicies.class, Optional.of(submarinerNamespace),
                    client.resources(ClusterConnectionPolicies.class).inNamespace(submarinerNamespace).inform(new SignalOnChange<>(onChange)));
            leases = keep(Lease.class, Optional.of(submarinerNamespace),
                    client.resources(Lease.class).inNamespace(submarinerNamespace).inform(new SignalOnChange<>(onChange)));
            gateways = keep(Gateway.class, Optional.of(submarinerNamespace),
                    client.resources(Gateway.class).inNamespace(submarinerNamespace).inform(new SignalOnChange<>(onChange)));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private <T extends HasMetadata> SharedIndexInformer<T> keep(Class<T> kind, Optional<String> namespace, SharedIndexInformer<T> informer) {
        all.add(informer);
        watched.add(new UnseenWrites.Watched(Api.LOCAL, kind, namespace, informer.getStore()));
        return informer;
    }

    /** Each informer's cache, by what it watches: where the runtime looks for its own writes. */
    List<UnseenWrites.Watched> watched() {
        return List.copyOf(watched);
    }

    /** The caches as they are now. */
    LiveObjects snapshot() {
        Optional<java.util.Set<String>> holders = LiveObjectsReader.activeGateways(leases.getStore().list(), java.time.Instant.now());
        return new LiveObjects(clusterId, nodes.getStore().list(), pods.getStore().list(), services.getStore().list(),
                endpointSlices.getStore().list(), serviceExports.getStore().list(), clusterGlobalEgressIPs.getStore().list(),
                globalEgressIPs.getStore().list(), globalIngressIPs.getStore().list(), clusters.getStore().list(),
                endpoints.getStore().list(), connectivityPolicies.getStore().list(), connectionPolicies.getStore().list(), holders,
                gateways.getStore().list());
    }

    @Override
    public void close() {
        all.forEach(SharedIndexInformer::close);
    }
}
