package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;

import java.util.List;
import java.util.Optional;

/**
 * What one cluster's API holds that the model is built from, as fabric8 objects: read once with
 * list calls ({@link LiveObjectsReader}, for snapshots) or taken from informer caches (the agents).
 * {@code clusters} and {@code endpoints} include the remote ones the broker sync copied in.
 *
 * @param clusterId      the cluster these objects were read from
 * @param activeGateways the gateways holding a fresh gateway lease (the cluster's lease, or with
 *                       multiple active gateways each its own); empty when no gateway lease exists
 *                       at all (a cluster without Periscope's agents), so labels alone decide
 * @param gateways       the Gateway objects in the Submariner namespace, one per gateway node that
 *                       ran a gateway agent: their status, and with Globalnet the gateway's own
 *                       global IP in their {@code submariner.io/globalIp} annotation
 */
public record LiveObjects(
        String clusterId,
        List<Node> nodes,
        List<Pod> pods,
        List<Service> services,
        List<EndpointSlice> endpointSlices,
        List<ServiceExportResource> serviceExports,
        List<ClusterGlobalEgressIPResource> clusterGlobalEgressIPs,
        List<GlobalEgressIPResource> globalEgressIPs,
        List<GlobalIngressIPResource> globalIngressIPs,
        List<SubmarinerCluster> clusters,
        List<SubmarinerEndpoint> endpoints,
        List<ClusterConnectivityPolicyResource> connectivityPolicies,
        List<ClusterConnectionPolicies> connectionPolicies,
        Optional<java.util.Set<String>> activeGateways,
        List<Gateway> gateways) {

    public LiveObjects {
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        services = List.copyOf(services);
        endpointSlices = List.copyOf(endpointSlices);
        serviceExports = List.copyOf(serviceExports);
        clusterGlobalEgressIPs = List.copyOf(clusterGlobalEgressIPs);
        globalEgressIPs = List.copyOf(globalEgressIPs);
        globalIngressIPs = List.copyOf(globalIngressIPs);
        clusters = List.copyOf(clusters);
        endpoints = List.copyOf(endpoints);
        connectivityPolicies = List.copyOf(connectivityPolicies);
        connectionPolicies = List.copyOf(connectionPolicies);
        activeGateways = activeGateways.map(java.util.Set::copyOf);
        gateways = List.copyOf(gateways);
    }

    /**
     * The nodes labelled as gateways, with a lease or without: the gateways that can come back. A
     * labelled node whose agent lost its lease is no gateway of the model (it carries nothing), but
     * it is still one of the cluster's gateway nodes until it is deleted or unlabelled.
     */
    public java.util.Set<String> gatewayNodes() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (Node node : nodes) {
            if ("true".equals(ClusterModelBuilder.labelsOf(node).get(SubmarinerApi.GATEWAY_LABEL))) {
                names.add(node.getMetadata().getName());
            }
        }
        return names;
    }

    /** This cluster's own Cluster object (named after the cluster id, or carrying it in {@code cluster_id}). */
    public Optional<SubmarinerCluster> localCluster() {
        return clusters.stream().filter(c -> clusterId.equals(ClusterModelBuilder.clusterIdOf(c))).findFirst();
    }
}
