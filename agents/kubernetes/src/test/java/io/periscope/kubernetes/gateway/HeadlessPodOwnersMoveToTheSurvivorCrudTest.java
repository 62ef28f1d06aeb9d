package io.periscope.kubernetes.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.health.ScriptedProber;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.routeagent.RouteAgent;
import io.periscope.kubernetes.testing.FreshNode;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.MockCluster;
import io.periscope.kubernetes.testing.NodeAgents;
import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-gateway egress ownership when the gateway owning a headless pod fails, on live objects: the
 * pod's worker steers it to the surviving gateway as soon as its health checker hears the owner go
 * silent; once the owner's lease is gone, the Globalnet controller names the survivor in the pod's
 * GlobalIngressIP status and the survivor publishes the pod's address in its Endpoint, while the
 * GlobalEgressIP keeps the owner's slice held for it (its node is still a gateway node, so it can
 * come back). When the owner is back, so is its ownership, with the same addresses.
 */
class HeadlessPodOwnersMoveToTheSurvivorCrudTest {

    private static final Map<String, Ipv4Address> VX = Map.of("gw-1", Ipv4Address.parse("240.18.0.6"), "gw-2", Ipv4Address.parse("240.18.0.8"));
    private static final Pattern POD_RULE = Pattern.compile("rule add pref 140 from 10\\.0\\.128\\.6/32 lookup (\\d+)");

    private MockCluster cluster;
    private KubernetesClient client;
    private GlobalnetController globalnet;
    private final Map<String, GatewayAgent> gateways = new java.util.HashMap<>();
    private final Map<String, KubernetesClient> gatewayClients = new java.util.HashMap<>();
    private RouteAgent worker;
    private final FreshNode workerKernel = new FreshNode();

    @BeforeEach
    void clusterWithTwoGatewaysOwningTheirEgress() {
        cluster = new MockCluster();
        client = cluster.client();
        NodeAgents.perGatewayEgressClusterSet(client);
        globalnet = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-0");
    }

    @AfterEach
    void stop() throws Exception {
        if (worker != null) {
            worker.close();
        }
        for (GatewayAgent gateway : gateways.values()) {
            gateway.close();
        }
        globalnet.close();
        cluster.close();
    }

    private void startGateway(String node) {
        KubernetesClient own = cluster.newClient();
        gatewayClients.put(node, own);
        gateways.put(node, NodeAgents.gateway(own, "cluster1", node, true, new FreshNode()));
    }

    /** The owner named in the pod's GlobalIngressIP status, once both gateways are up. */
    private String ownerOnceBothAreUp() {
        assertThatEventually("the headless pod's GlobalIngressIP names its owner and both gateways publish Endpoints", () -> {
            assertThat(ingressOwner()).hasValueSatisfying(owner -> assertThat(owner).isIn("gw-1", "gw-2"));
            assertThat(endpoint("gw-1")).isPresent();
            assertThat(endpoint("gw-2")).isPresent();
            assertThat(slices()).extracting(AllocationStatus.GatewaySlice::gateway).containsExactly("gw-1", "gw-2");
        });
        return ingressOwner().orElseThrow();
    }

    @Test
    void theWorkerSteersTheSilentOwnersPodToTheSurvivorAndBackAfterHoldDown() {
        startGateway("gw-1");
        startGateway("gw-2");
        ScriptedProber probes = new ScriptedProber();
        worker = NodeAgents.routeAgent(cluster.newClient(), "cluster1", "worker-1", workerKernel, probes);
        String owner = ownerOnceBothAreUp();
        String survivor = owner.equals("gw-1") ? "gw-2" : "gw-1";
        assertThatEventually("the worker steers the pod to its owner", () -> assertThat(podTableVia()).contains(VX.get(owner)));

        probes.silence(VX.get(owner));
        assertThatEventually("the worker steers the pod to the survivor while the owner is silent", () -> {
            assertThat(worker.health().down()).containsExactly("cluster1/" + owner);
            assertThat(podTableVia()).contains(VX.get(survivor));
        });
        assertThat(ingressOwner()).as("a silent path is not a lost lease: the controller's owner stays").contains(owner);

        probes.answer(VX.get(owner));
        assertThatEventually("the pod goes back to its owner after the hold-down", () -> {
            assertThat(worker.health().down()).isEmpty();
            assertThat(podTableVia()).contains(VX.get(owner));
        });
    }

    @Test
    void whenTheOwnerLosesItsLeaseTheStatusAndEndpointsNameTheSurvivorAndItsReturnRestoresThem() {
        startGateway("gw-1");
        startGateway("gw-2");
        worker = NodeAgents.routeAgent(cluster.newClient(), "cluster1", "worker-1", workerKernel);
        String owner = ownerOnceBothAreUp();
        String survivor = owner.equals("gw-1") ? "gw-2" : "gw-1";
        String podAddress = GlobalnetFixture.ingress(client, "default", "pod-cache-0").orElseThrow().getStatus().allocatedIP();
        List<AllocationStatus.GatewaySlice> before = slices();
        assertThatEventually("the owner publishes the pod's address", () ->
                assertThat(endpoint(owner).orElseThrow().getSpec().allocatedIPs()).contains(podAddress));

        // A crash: the agent's connection goes first, so it neither releases its lease nor removes its Endpoint.
        gatewayClients.get(owner).close();
        GatewayAgent crashed = gateways.remove(owner);
        try {
            crashed.close();
        } catch (IllegalStateException e) {
            // Its loop, probes and candidacy ended first; only its goodbye writes fail, as a crashed process never makes them.
            assertThat(e).hasMessageContaining("closed");
        }

        assertThatEventually("once the lease expires the survivor owns the pod, in status, in its Endpoint and on the worker", () -> {
            assertThat(ingressOwner()).contains(survivor);
            assertThat(endpoint(owner)).as("the survivor removed the dead gateway's Endpoint").isEmpty();
            assertThat(endpoint(survivor).orElseThrow().getSpec().allocatedIPs()).contains(podAddress);
            assertThat(podTableVia()).contains(VX.get(survivor));
        });
        // The pass that named the survivor wrote the GlobalEgressIP's status first.
        assertThat(slices()).as("both slices, the lease-less owner's held for it").isEqualTo(before);
        assertThat(GlobalnetFixture.egress(client, "ns1", "ns-egressip").flatMap(GlobalnetFixture::message).orElseThrow())
                .contains("one per active gateway: " + survivor + " ").contains("held for its gateway without a lease until it is back: " + owner + " ");
        assertThat(GlobalnetFixture.ingress(client, "default", "pod-cache-0").orElseThrow().getStatus().allocatedIP())
                .as("the pod keeps its global IP").isEqualTo(podAddress);

        startGateway(owner);
        assertThatEventually("the owner is back with its pod and its slice", () -> {
            assertThat(ingressOwner()).contains(owner);
            assertThat(slices()).isEqualTo(before);
            assertThat(endpoint(owner).orElseThrow().getSpec().allocatedIPs()).contains(podAddress);
            assertThat(endpoint(survivor).orElseThrow().getSpec().allocatedIPs()).doesNotContain(podAddress);
            assertThat(podTableVia()).contains(VX.get(owner));
        });
    }

    private Optional<String> ingressOwner() {
        return GlobalnetFixture.ingress(client, "default", "pod-cache-0").map(i -> i.getStatus()).map(s -> s.gateway());
    }

    /** The gateway the worker's owner table for cache-0 routes through, as its vx-submariner address. */
    private Optional<Ipv4Address> podTableVia() {
        String batch = workerKernel.lastInputTo("ip");
        Matcher rule = POD_RULE.matcher(batch);
        if (!rule.find()) {
            return Optional.empty();
        }
        Matcher route = Pattern.compile("table " + rule.group(1) + " metric \\d+ proto \\w+ via (\\S+) dev vx-submariner").matcher(batch);
        return route.find() ? Optional.of(Ipv4Address.parse(route.group(1))) : Optional.empty();
    }

    private List<AllocationStatus.GatewaySlice> slices() {
        return GlobalnetFixture.gatewaySlices(client, "ns1", "ns-egressip");
    }

    private Optional<SubmarinerEndpoint> endpoint(String node) {
        return NodeAgents.endpoint(client, "cluster1", node);
    }
}
