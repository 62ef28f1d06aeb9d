package io.periscope.kubernetes.testing;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPSpec;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;

import java.util.List;
import java.util.Map;

/** Builds and creates the objects a test cluster needs: nodes, pods, services, exports, Submariner objects. */
public final class LiveObjectsFactory {

    private final KubernetesClient client;

    public LiveObjectsFactory(KubernetesClient client) {
        this.client = client;
    }

    /** The slice the endpoint controller writes for {@code service}: IPv4, one unnamed TCP port, {@code endpoints}. */
    public static EndpointSlice endpointSlice(String namespace, String service, int port, Endpoint... endpoints) {
        return new EndpointSliceBuilder().withNewMetadata().withName(service + "-abcde").withNamespace(namespace)
                .withLabels(Map.of("kubernetes.io/service-name", service)).endMetadata()
                .withAddressType("IPv4").addToEndpoints(endpoints)
                .addNewPort().withName("").withPort(port).withProtocol("TCP").endPort().build();
    }

    /** One endpoint of a slice: {@code pod}'s address, ready or not. */
    public static Endpoint endpoint(String namespace, String pod, String ip, boolean ready) {
        return new EndpointBuilder().withAddresses(ip).withNewConditions().withReady(ready).endConditions()
                .withNewTargetRef().withKind("Pod").withName(pod).withNamespace(namespace).endTargetRef().build();
    }

    public void namespace(String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }

    public SubmarinerCluster cluster(String id, String podCidr, String serviceCidr, String globalCidr, boolean multiActive, int egressIPs,
                                     Map<String, String> labels) {
        return cluster(id, podCidr, serviceCidr, globalCidr, multiActive, egressIPs, labels, "kube-proxy");
    }

    /** {@code cni} as the Cluster object spells it: {@code kube-proxy} or {@code ovn-kubernetes}. */
    public SubmarinerCluster cluster(String id, String podCidr, String serviceCidr, String globalCidr, boolean multiActive, int egressIPs,
                                     Map<String, String> labels, String cni) {
        SubmarinerCluster cluster = new SubmarinerCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(id).withNamespace(MockCluster.SUBMARINER_NAMESPACE).withLabels(labels).build());
        cluster.setSpec(new ClusterSpec(id, List.of("blue"), List.of(podCidr), List.of(serviceCidr), globalCidr == null ? List.of() : List.of(globalCidr),
                cni, multiActive, egressIPs, null, "vxlan"));
        return client.resource(cluster).create();
    }

    /** Turns on multiple active gateways and {@code egress_ownership: per-gateway} in the Cluster object. */
    public SubmarinerCluster perGatewayEgress(String clusterId) {
        SubmarinerCluster cluster = client.resources(SubmarinerCluster.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(clusterId).get();
        ClusterSpec spec = cluster.getSpec();
        cluster.setSpec(new ClusterSpec(spec.clusterId(), spec.colorCodes(), spec.clusterCidr(), spec.serviceCidr(), spec.globalCidr(), spec.cni(),
                true, spec.clusterEgressIPs(), spec.gatewayLoadBalancing(), spec.cableDriver(), spec.globalnetMode(), "per-gateway"));
        return client.resource(cluster).update();
    }

    public Node node(String name, String ip, String podCidr, boolean gateway) {
        NodeBuilder builder = new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(gateway ? Map.of(SubmarinerApi.GATEWAY_LABEL, "true") : Map.of()).endMetadata()
                .withNewSpec().withPodCIDR(podCidr).endSpec()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress(ip).endAddress().endStatus();
        return client.resource(builder.build()).create();
    }

    /** The Gateway object a node's gateway agent writes (named after the node), without status yet. */
    public Gateway gateway(String node) {
        Gateway gateway = new Gateway();
        gateway.setMetadata(new ObjectMetaBuilder().withName(node).withNamespace(MockCluster.SUBMARINER_NAMESPACE).build());
        return client.resource(gateway).create();
    }

    public Pod pod(String namespace, String name, String node, String ip, Map<String, String> labels) {
        namespace(namespace);
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("app").withImage("app").endContainer().endSpec()
                .withNewStatus().withPhase("Running").withPodIP(ip).endStatus().build();
        Pod created = client.resource(pod).create();
        // Status is a subresource for pods too; write it the way the kubelet does.
        created.setStatus(pod.getStatus());
        return client.resource(created).updateStatus();
    }

    public Service service(String namespace, String name, String clusterIp, Map<String, String> selector, int port) {
        namespace(namespace);
        Service service = new ServiceBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewSpec().withClusterIP(clusterIp == null ? "None" : clusterIp).withSelector(selector)
                .addNewPort().withPort(port).withTargetPort(new IntOrString(port)).withProtocol("TCP").endPort().endSpec().build();
        return client.resource(service).create();
    }

    public ServiceExportResource export(String namespace, String name) {
        namespace(namespace);
        ServiceExportResource export = new ServiceExportResource();
        export.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        return client.resource(export).create();
    }

    public GlobalEgressIPResource egress(String namespace, String name, Integer numberOfIPs, Map<String, String> podSelector) {
        namespace(namespace);
        GlobalEgressIPResource egress = new GlobalEgressIPResource();
        egress.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        egress.setSpec(new GlobalEgressIPSpec(numberOfIPs, podSelector == null ? null : new LabelSelectorBuilder().withMatchLabels(podSelector).build()));
        return client.resource(egress).create();
    }
}
