package io.periscope.dns;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.dns.GatewayHealth;
import io.periscope.plan.dns.PodReadiness;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.periscope.dns.WireClient.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lighthouse's handler (coredns/plugin/handler.go, getDNSRecord at v0.19.0-rc3) answers a service it
 * knows but has no record for with an empty, authoritative NOERROR, and a name it does not know with
 * NXDOMAIN; a cluster-qualified name gets that cluster's record whether or not its endpoints are ready
 * (coredns/resolver/resolver.go, getClusterIPRecord). Checked on the wire, over served.yaml, for pods
 * of cluster a.
 */
class AServiceNoClusterIsLeftForGetsAnEmptyNoerrorAsFromLighthouse {

    private static ClusterSetPlan plan;

    @BeforeAll
    static void plan() throws Exception {
        try (InputStream in = AServiceNoClusterIsLeftForGetsAnEmptyNoerrorAsFromLighthouse.class.getResourceAsStream("/served.yaml")) {
            ClusterSet set = TopologyLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "served.yaml");
            plan = Planner.plan(set);
        }
    }

    private static WireClient.Response ask(ServiceDiscovery discovery, String name, int type) throws Exception {
        try (DnsServer server = DnsServer.start(new InetSocketAddress("127.0.0.1", 0), new ClustersetZone(Optional.of("a"), discovery), 1)) {
            return new WireClient(server.address()).udp(query(42, name, type, Optional.empty()));
        }
    }

    @Test
    void aServiceWhoseOnlyClusterHasNoGatewayLeftIsAnsweredEmptyWithNoerror() throws Exception {
        ServiceDiscovery bDown = ServiceDiscovery.of(plan, new GatewayHealth(Set.of("b")));

        for (String name : List.of("kv.store.svc.clusterset.local", "b.kv.store.svc.clusterset.local", "kv-7.b.kv.store.svc.clusterset.local")) {
            WireClient.Response r = ask(bDown, name, WireClient.A);
            assertThat(r.rcode()).as(name).isZero();
            assertThat(r.authoritative()).as(name).isTrue();
            assertThat(r.answers()).as(name).isEmpty();
        }
        assertThat(ask(bDown, "_kv._tcp.kv.store.svc.clusterset.local", WireClient.SRV).rcode()).isZero();
        assertThat(ask(ServiceDiscovery.of(plan), "kv-7.b.kv.store.svc.clusterset.local", WireClient.A).data(WireClient.A))
                .as("with b's gateway up").containsExactly("10.2.2.17");
    }

    @Test
    void namesOfNothingExportedStayNxdomain() throws Exception {
        ServiceDiscovery bDown = ServiceDiscovery.of(plan, new GatewayHealth(Set.of("b")));

        assertThat(ask(bDown, "nosuch.store.svc.clusterset.local", WireClient.A).rcode()).as("no such service").isEqualTo(3);
        assertThat(ask(bDown, "a.kv.store.svc.clusterset.local", WireClient.A).rcode()).as("a does not export kv").isEqualTo(3);
        assertThat(ask(bDown, "kv-99.b.kv.store.svc.clusterset.local", WireClient.A).rcode()).as("no such pod of b").isEqualTo(3);
    }

    @Test
    void aClusterQualifiedNameGetsItsClustersRecordEvenWithNoReadyEndpointThere() throws Exception {
        PodReadiness webNotReadyInB = new PodReadiness() {
            @Override
            public boolean ready(String cluster, String namespace, String service, String pod) {
                return true;
            }

            @Override
            public boolean serviceReady(String cluster, String namespace, String service) {
                return !(cluster.equals("b") && service.equals("web"));
            }
        };
        ServiceDiscovery discovery = ServiceDiscovery.of(plan, GatewayHealth.ALL_UP, webNotReadyInB, List.of());

        assertThat(ask(discovery, "b.web.default.svc.clusterset.local", WireClient.A).data(WireClient.A)).containsExactly("100.2.0.10");
        assertThat(ask(discovery, "_http._tcp.b.web.default.svc.clusterset.local", WireClient.SRV).data(WireClient.SRV))
                .containsExactly("0 50 80 b.web.default.svc.clusterset.local.");
    }
}
