package io.periscope.kubernetes.globalnet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.ServiceExportResource;
import io.periscope.kubernetes.testing.GlobalnetFixture;
import io.periscope.kubernetes.testing.LiveObjectsFactory;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.periscope.kubernetes.testing.Eventually.assertThatEventually;
import static io.periscope.kubernetes.testing.GlobalnetFixture.clusterEgress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.egress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.everyAllocatedAddress;
import static io.periscope.kubernetes.testing.GlobalnetFixture.ingress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream submariner#4122: after a restart, Globalnet handed out addresses that objects already held,
 * because new requests were served before the old allocations were read back. Here every restart
 * restores all allocations from status before allocating anything: whole objects, and under
 * per-gateway egress ownership each gateway's slice on its own.
 */
class GlobalnetRestartNeverGivesAnAddressTwiceCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private LiveObjectsFactory objects;
    private GlobalnetController controller;

    @BeforeEach
    void cluster() {
        cluster = new MockCluster();
        client = cluster.client();
        objects = new LiveObjectsFactory(client);
        objects.cluster("cluster1", "10.0.0.0/16", "100.0.0.0/16", "242.254.1.0/24", false, 8, Map.of());
        objects.node("gw-1", "172.18.0.6", "10.0.0.0/18", true);
        objects.gateway("gw-1");
    }

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        cluster.close();
    }

    @Test
    void objectsKeepTheirAddressesAndRequestsMadeWhileDownGetOthers() {
        for (int i = 0; i < 5; i++) {
            objects.service("default", "svc" + i, "100.0.0." + (10 + i), Map.of("app", "a" + i), 80);
            objects.export("default", "svc" + i);
        }
        objects.egress("ns1", "ns-egress", 4, null);
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        // The cluster's egress block, the namespace's block, the exports, and the gateway's own global IP.
        assertThatEventually("everything allocated", () -> assertThat(everyAllocatedAddress(client)).hasSize(8 + 4 + 5 + 1));
        Map<String, String> before = ingressAddresses();
        String gatewayBefore = gatewayGlobalIp();
        List<String> clusterEgressBefore = clusterEgress(client, "cluster-egress.submariner.io").orElseThrow().getStatus().allocatedIPs();
        List<String> egressBefore = egress(client, "ns1", "ns-egress").orElseThrow().getStatus().allocatedIPs();
        controller.close();

        // While the controller is down: svc0 (which held .254) goes away, so allocating everything
        // afresh would move every other object; and new requests come that a fresh pool would answer
        // with the very addresses the existing objects hold (.254 down, and the lowest blocks).
        client.resources(ServiceExportResource.class).inNamespace("default").withName("svc0").delete();
        before.remove("svc-svc0");
        for (int i = 5; i < 8; i++) {
            objects.service("default", "svc" + i, "100.0.0." + (10 + i), Map.of("app", "a" + i), 80);
            objects.export("default", "svc" + i);
        }
        objects.egress("ns2", "another", 4, null);
        controller = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-1");

        assertThatEventually("the new requests are served", () -> {
            assertThat(ingressAddresses()).hasSize(7).doesNotContainValue(null);
            assertThat(egress(client, "ns2", "another").orElseThrow().getStatus().allocatedIPs()).hasSize(4);
        });
        Map<String, String> after = ingressAddresses();
        before.forEach((name, address) -> assertThat(after).containsEntry(name, address));
        assertThat(clusterEgress(client, "cluster-egress.submariner.io").orElseThrow().getStatus().allocatedIPs()).isEqualTo(clusterEgressBefore);
        assertThat(egress(client, "ns1", "ns-egress").orElseThrow().getStatus().allocatedIPs()).isEqualTo(egressBefore);
        assertThat(gatewayGlobalIp()).as("the Gateway's annotation is taken back, not handed out again").isEqualTo(gatewayBefore);
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(8 + 4 + 4 + 7 + 1);
    }

    @Test
    void aRestartInTheMiddleOfABurstOfExportsAndDeletionsLeavesEveryAddressWithOneOwner() throws Exception {
        Random random = new Random(4122);
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        Set<String> exported = new TreeSet<>();
        // Every address each object (by uid) was ever seen with: an object's address must never change.
        Map<String, Set<String>> seenByUid = new java.util.concurrent.ConcurrentHashMap<>();
        io.fabric8.kubernetes.client.Watch watch = client.resources(GlobalIngressIPResource.class).inNamespace("default").watch(new io.fabric8.kubernetes.client.Watcher<>() {
            @Override
            public void eventReceived(Action action, GlobalIngressIPResource resource) {
                if (resource.getStatus() != null && resource.getStatus().allocatedIP() != null) {
                    seenByUid.computeIfAbsent(resource.getMetadata().getUid(), u -> java.util.concurrent.ConcurrentHashMap.newKeySet())
                            .add(resource.getStatus().allocatedIP());
                }
            }

            @Override
            public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
            }
        });
        int restartAt = 25;
        for (int step = 0; step < 60; step++) {
            if (step == restartAt) {
                // A new process: its own client, its own informers, its own pool.
                controller.close();
                controller = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-1");
            }
            if (!exported.isEmpty() && random.nextInt(3) == 0) {
                String victim = List.copyOf(exported).get(random.nextInt(exported.size()));
                client.resources(ServiceExportResource.class).inNamespace("default").withName(victim).delete();
                exported.remove(victim);
            } else {
                String name = "svc" + step;
                objects.service("default", name, "100.0.1." + step, Map.of("app", name), 80);
                objects.export("default", name);
                exported.add(name);
            }
            if (random.nextInt(4) == 0) {
                Thread.sleep(random.nextInt(40));
            }
        }

        assertThatEventually("every export has exactly one GlobalIngressIP with an address, and no other exists", () -> {
            Map<String, String> addresses = ingressAddresses();
            assertThat(addresses.keySet()).isEqualTo(exported.stream().map(n -> "svc-" + n).collect(Collectors.toSet()));
            assertThat(addresses.values()).doesNotContainNull();
        });
        watch.close();
        assertThat(seenByUid).isNotEmpty().allSatisfy((uid, addresses) -> assertThat(addresses).as("addresses of " + uid).hasSize(1));
        List<String> all = everyAllocatedAddress(client);
        assertThat(all).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).hasSize(8 + exported.size() + 1);
    }

    /**
     * The same with {@code egress_ownership: per-gateway} and three active gateways: GlobalEgressIPs
     * come and go in a burst with a restart in the middle. Each slice is taken back from status on
     * its own and never moves (an object's slice for a gateway, by uid, is only ever seen with one
     * set of addresses), every live object ends with a slice per gateway, no address has two
     * holders, and each headless pod keeps its owning gateway across the restart.
     */
    @Test
    void aRestartInTheMiddleOfABurstOfGlobalEgressIPsKeepsEverySliceWhereItWas() throws Exception {
        objects.perGatewayEgress("cluster1");
        objects.node("gw-2", "172.18.0.8", "10.0.64.0/18", true);
        objects.node("gw-3", "172.18.0.7", "10.0.32.0/19", true);
        objects.gateway("gw-2");
        objects.gateway("gw-3");
        objects.node("worker-1", "172.18.0.10", "10.0.128.0/17", false);
        objects.service("default", "cache", null, Map.of("app", "cache"), 6379);
        objects.export("default", "cache");
        for (int i = 0; i < 4; i++) {
            objects.pod("default", "cache-" + i, "worker-1", "10.0.128." + (10 + i), Map.of("app", "cache"));
        }
        Map<String, Set<List<String>>> slicesSeen = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Set<String>> ownersSeen = new java.util.concurrent.ConcurrentHashMap<>();
        io.fabric8.kubernetes.client.Watch egressWatch = client.resources(GlobalEgressIPResource.class).inAnyNamespace().watch(new Recorder<>(object -> {
            if (object.getStatus() != null && object.getStatus().gatewaySlices() != null) {
                object.getStatus().gatewaySlices().forEach(slice -> slicesSeen.computeIfAbsent(object.getMetadata().getUid() + " " + slice.gateway(),
                        k -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(slice.allocatedIPs()));
            }
        }));
        io.fabric8.kubernetes.client.Watch ingressWatch = client.resources(GlobalIngressIPResource.class).inNamespace("default").watch(new Recorder<>(object -> {
            if (object.getStatus() != null && object.getStatus().gateway() != null) {
                ownersSeen.computeIfAbsent(object.getMetadata().getName() + " " + object.getMetadata().getUid(),
                        k -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(object.getStatus().gateway());
            }
        }));
        controller = GlobalnetFixture.controller(client, "cluster1", "globalnet-0");
        assertThatEventually("every headless pod has an owner", () -> assertThat(ownersSeen).hasSize(4));

        Random random = new Random(4123);
        Map<String, Integer> live = new java.util.TreeMap<>();
        int restartAt = 15;
        for (int step = 0; step < 40; step++) {
            if (step == restartAt) {
                controller.close();
                controller = GlobalnetFixture.controller(cluster.newClient(), "cluster1", "globalnet-1");
            }
            if (!live.isEmpty() && (live.size() >= 10 || random.nextInt(3) == 0)) {
                String victim = List.copyOf(live.keySet()).get(random.nextInt(live.size()));
                client.resources(GlobalEgressIPResource.class).inNamespace(victim.split("/")[0]).withName(victim.split("/")[1]).delete();
                live.remove(victim);
            } else {
                String namespace = "ns" + step % 3;
                int n = 1 + random.nextInt(3);
                objects.egress(namespace, "e" + step, n, null);
                live.put(namespace + "/e" + step, n);
            }
            if (random.nextInt(3) == 0) {
                Thread.sleep(random.nextInt(60));
            }
        }

        assertThatEventually("every live GlobalEgressIP has a slice of its size per gateway, and no other exists", () -> {
            Map<String, List<String>> sizes = new java.util.TreeMap<>();
            for (GlobalEgressIPResource object : client.resources(GlobalEgressIPResource.class).inAnyNamespace().list().getItems()) {
                List<AllocationStatus.GatewaySlice> slices = object.getStatus() == null || object.getStatus().gatewaySlices() == null
                        ? List.of() : object.getStatus().gatewaySlices();
                sizes.put(object.getMetadata().getNamespace() + "/" + object.getMetadata().getName(),
                        slices.stream().map(slice -> slice.gateway() + " " + slice.allocatedIPs().size()).toList());
            }
            Map<String, List<String>> expected = new java.util.TreeMap<>();
            live.forEach((name, n) -> expected.put(name, List.of("gw-1 " + n, "gw-2 " + n, "gw-3 " + n)));
            assertThat(sizes).isEqualTo(expected);
        });
        egressWatch.close();
        ingressWatch.close();
        assertThat(slicesSeen).isNotEmpty().allSatisfy((slice, addresses) -> assertThat(addresses).as("addresses of " + slice).hasSize(1));
        assertThat(ownersSeen).hasSize(4).allSatisfy((pod, owners) -> assertThat(owners).as("owners of " + pod).hasSize(1));
        int sliced = live.values().stream().mapToInt(n -> 3 * n).sum();
        // Each gateway's egress block, the headless pods, the slices, and each gateway's own global IP.
        assertThat(everyAllocatedAddress(client)).doesNotHaveDuplicates().hasSize(3 * 8 + 4 + sliced + 3);
    }

    private String gatewayGlobalIp() {
        return GlobalnetFixture.gatewayGlobalIp(client, "gw-1").orElse(null);
    }

    /** A watcher that hands every object it sees to {@code seen}. */
    private record Recorder<T>(java.util.function.Consumer<T> seen) implements io.fabric8.kubernetes.client.Watcher<T> {
        @Override
        public void eventReceived(Action action, T resource) {
            seen.accept(resource);
        }

        @Override
        public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
        }
    }

    private Map<String, String> ingressAddresses() {
        Map<String, String> addresses = new HashMap<>();
        for (GlobalIngressIPResource object : client.resources(GlobalIngressIPResource.class).inNamespace("default").list().getItems()) {
            addresses.put(object.getMetadata().getName(), object.getStatus() == null ? null : object.getStatus().allocatedIP());
        }
        return addresses;
    }
}
