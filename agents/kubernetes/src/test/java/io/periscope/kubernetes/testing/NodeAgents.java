package io.periscope.kubernetes.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.health.HealthSettings;
import io.periscope.dataplane.health.Prober;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.gateway.GatewayAgent;
import io.periscope.kubernetes.nodeplan.NodeAgentSettings;
import io.periscope.kubernetes.routeagent.RouteAgent;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Gateway and route agents on recorded nodes, and a remote cluster as the broker sync would leave it. */
public final class NodeAgents {

    private NodeAgents() {
    }

    public static NodeAgentSettings settings(String cluster, String node, boolean multiActive) {
        return new NodeAgentSettings(cluster, MockCluster.SUBMARINER_NAMESPACE, node, multiActive, GlobalnetFixture.FAST, Duration.ofSeconds(2));
    }

    public static GatewayAgent gateway(KubernetesClient client, String cluster, String node, boolean multiActive, FreshNode kernel) {
        return new GatewayAgent(client, settings(cluster, node, multiActive), kernel.runner()).start();
    }

    /** Health checking fast enough for a test: down after 3 x 20 ms, back after 200 ms of answers. */
    public static final HealthSettings FAST_HEALTH = new HealthSettings(Duration.ofMillis(20), 3, Duration.ofMillis(200));

    /** A gateway agent that health-checks the remote gateways with {@code prober}. */
    public static GatewayAgent gateway(KubernetesClient client, String cluster, String node, boolean multiActive, FreshNode kernel,
                                       Prober prober) {
        NodeAgentSettings base = settings(cluster, node, multiActive);
        return new GatewayAgent(client, withHealth(base), kernel.runner(), KernelWatch.NONE, () -> prober).start();
    }

    /** A route agent that health-checks its cluster's gateways with {@code prober}. */
    public static RouteAgent routeAgent(KubernetesClient client, String cluster, String node, FreshNode kernel, Prober prober) {
        return new RouteAgent(client, withHealth(settings(cluster, node, false)), kernel.runner(), KernelWatch.NONE, () -> prober).start();
    }

    private static NodeAgentSettings withHealth(NodeAgentSettings s) {
        return new NodeAgentSettings(s.clusterId(), s.namespace(), s.nodeName(), s.multiActiveGateway(), s.timings(), s.resync(), FAST_HEALTH);
    }

    public static RouteAgent routeAgent(KubernetesClient client, String cluster, String node, FreshNode kernel) {
        return new RouteAgent(client, settings(cluster, node, false), kernel.runner()).start();
    }

    /** cluster1 of seed 004's drawing with Globalnet: gw-1 and gw-2 active (--multi-active-gateway), worker-1. */
    public static void cluster1WithTwoActiveGateways(LiveObjectsFactory objects) {
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", true, 8, Map.of("location", "on-premise"));
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
    }

    /**
     * cluster1 of seed 004's drawing with {@code egress_ownership: per-gateway}: gw-1 and gw-2 active,
     * worker-1 running {@code default/cache-0} behind the exported headless service {@code cache}, and a
     * namespace GlobalEgressIP {@code ns1/ns-egressip} of one address per gateway.
     */
    public static void cluster1WithPerGatewayEgress(LiveObjectsFactory objects, KubernetesClient client) {
        var object = objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", true, 8, Map.of("location", "on-premise"));
        var spec = object.getSpec();
        object.setSpec(new ClusterSpec(spec.clusterId(), spec.colorCodes(), spec.clusterCidr(), spec.serviceCidr(),
                spec.globalCidr(), spec.cni(), spec.multiActiveGateways(), spec.clusterEgressIPs(), spec.gatewayLoadBalancing(),
                spec.cableDriver(), spec.globalnetMode(), "per-gateway"));
        client.resource(object).update();
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
        objects.pod("default", "cache-0", "worker-1", "10.0.128.6", Map.of("app", "cache"));
        objects.service("default", "cache", null, Map.of("app", "cache"), 6379);
        objects.export("default", "cache");
        objects.egress("ns1", "ns-egressip", 1, null);
    }

    /** The Endpoint {@code node}'s gateway agent publishes for {@code cluster}, while it does. */
    public static Optional<SubmarinerEndpoint> endpoint(KubernetesClient client, String cluster, String node) {
        return Optional.ofNullable(client.resources(SubmarinerEndpoint.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE)
                .withName(cluster + "-submariner-cable-" + cluster + "-" + node).get());
    }

    /** {@link #cluster1WithPerGatewayEgress} with {@link #remoteCluster2} beside it: the set the per-gateway egress tests share. */
    public static void perGatewayEgressClusterSet(KubernetesClient client) {
        LiveObjectsFactory objects = new LiveObjectsFactory(client);
        cluster1WithPerGatewayEgress(objects, client);
        remoteCluster2(objects, client);
    }

    /** cluster2 of seed 004's drawing, known only through the broker: its Cluster object and one gateway's Endpoint. */
    public static void remoteCluster2(LiveObjectsFactory objects, KubernetesClient client) {
        var cluster = objects.cluster("cluster2", "10.0.0.0/16", "100.0.0.0/16", "242.254.2.0/24", false, 8, Map.of("location", "cloud"));
        cluster.getMetadata().setLabels(Map.of("location", "cloud", SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true"));
        client.resource(cluster).update();
        remoteGateway(client, "gw-3", "172.18.0.4", "10.0.0.1");
    }

    /** {@link #remoteCluster2} with a second active gateway, gw-4, whose Endpoint the broker sync also copied here. */
    public static void remoteCluster2WithTwoGateways(LiveObjectsFactory objects, KubernetesClient client) {
        remoteCluster2(objects, client);
        remoteGateway(client, "gw-4", "172.18.0.9", "10.0.192.1");
    }

    private static void remoteGateway(KubernetesClient client, String hostname, String ip, String healthCheckIp) {
        SubmarinerEndpoint endpoint = new SubmarinerEndpoint();
        endpoint.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("cluster2-submariner-cable-cluster2-" + hostname)
                .withNamespace(MockCluster.SUBMARINER_NAMESPACE).withLabels(Map.of(SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true")).build());
        endpoint.setSpec(new EndpointSpec("cluster2", "submariner-cable-cluster2-" + ip.replace('.', '-'), healthCheckIp, hostname, List.of("242.254.2.0/24"),
                ip, ip, false, "vxlan", Map.of(), List.of()));
        client.resource(endpoint).create();
    }
}
