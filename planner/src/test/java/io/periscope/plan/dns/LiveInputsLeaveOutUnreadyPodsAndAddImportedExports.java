package io.periscope.plan.dns;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.dns.ClusterVerdict.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a live cluster adds to the plan's answers: readiness from EndpointSlices (a headless
 * service answers its ready pods only, a ClusterSetIP service only from clusters where it has a ready
 * endpoint) and the exports of clusters known only through the broker
 * (ServiceImports and Lighthouse's EndpointSlices). The topology of dns/discovery.yaml.
 */
class LiveInputsLeaveOutUnreadyPodsAndAddImportedExports {

    private final DiscoveryFixture f = new DiscoveryFixture();

    private static DnsAnswer ask(ServiceDiscovery discovery, String from, String name, int type) {
        return discovery.answer(name, type, Optional.of(from), Rotation.FIRST);
    }

    @Test
    void aPodThatIsNotReadyIsLeftOutOfItsHeadlessServicesAnswer() {
        PodReadiness http1NotReady = (cluster, namespace, service, pod) -> !(cluster.equals("west") && pod.equals("http-1"));
        ServiceDiscovery discovery = ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, http1NotReady, List.of());

        assertThat(ask(discovery, "east", "http.myproject.svc.clusterset.local", DnsRecord.A).addresses())
                .containsExactly(f.pod("west", "myproject", "http", "http-0"), f.pod("north", "myproject", "http", "http-0"));
        assertThat(ask(discovery, "west", "http-1.west.http.myproject.svc.clusterset.local", DnsRecord.A).rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(ask(ServiceDiscovery.of(f.plan), "east", "http.myproject.svc.clusterset.local", DnsRecord.A).addresses())
                .as("every pod is ready without a readiness input").hasSize(3);
    }

    @Test
    void noReadyPodLeavesTheClusterOutWithNoAddress() {
        PodReadiness westNotReady = (cluster, namespace, service, pod) -> !cluster.equals("west");
        DnsAnswer answer = ask(ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, westNotReady, List.of()), "west",
                "west.http.myproject.svc.clusterset.local", DnsRecord.A);
        assertThat(answer.rcode()).as("the cluster is known with no records: Lighthouse's empty NOERROR").isEqualTo(Rcode.NOERROR);
        assertThat(answer.answers()).isEmpty();
        assertThat(answer.clusters()).containsExactly(new ClusterVerdict("west", Verdict.NO_ADDRESS));
    }

    /** Every pod ready, but the ClusterSetIP service {@code namespace/service} has no ready endpoint in {@code cluster}. */
    private static PodReadiness serviceNotReadyIn(String cluster, String namespace, String service) {
        return new PodReadiness() {
            @Override
            public boolean ready(String c, String n, String s, String pod) {
                return true;
            }

            @Override
            public boolean serviceReady(String c, String n, String s) {
                return !(c.equals(cluster) && n.equals(namespace) && s.equals(service));
            }
        };
    }

    @Test
    void aClusterSetIpExportWithNoReadyEndpointLeavesItsClusterOutEvenForItsOwnPods() {
        ServiceDiscovery discovery = ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, serviceNotReadyIn("east", "default", "nginx"), List.of());

        DnsAnswer fromEast = ask(discovery, "east", "nginx.default.svc.clusterset.local", DnsRecord.A);
        assertThat(fromEast.rcode()).isEqualTo(Rcode.NOERROR);
        assertThat(fromEast.addresses()).as("the other exporting clusters answer instead of east's own export")
                .containsExactly(f.service("west", "default", "nginx"));
        assertThat(fromEast.clusters()).containsExactly(new ClusterVerdict("east", Verdict.NO_READY_ENDPOINTS),
                new ClusterVerdict("west", Verdict.ANSWERS), new ClusterVerdict("north", Verdict.NOT_THIS_TURN));
        assertThat(ask(discovery.upstream(), "east", "nginx.default.svc.clusterset.local", DnsRecord.A).addresses())
                .as("Lighthouse leaves it out too").doesNotContain(f.service("east", "default", "nginx"));
        assertThat(ask(discovery, "east", "east.nginx.default.svc.clusterset.local", DnsRecord.A).addresses())
                .as("a cluster-qualified name gets that cluster's record even with no ready endpoint, as Lighthouse's resolver gives it")
                .containsExactly(f.service("east", "default", "nginx"));
        assertThat(ask(discovery, "west", "_http._tcp.east.nginx.default.svc.clusterset.local", DnsRecord.SRV).answers())
                .extracting(r -> ((DnsRecord.Location) r).target()).containsExactly("east.nginx.default.svc.clusterset.local");
        assertThat(ask(discovery, "east", "_http._tcp.nginx.default.svc.clusterset.local", DnsRecord.SRV).answers())
                .extracting(r -> ((DnsRecord.Location) r).target()).doesNotContain("east.nginx.default.svc.clusterset.local");
        assertThat(ask(discovery, "west", "api.default.svc.clusterset.local", DnsRecord.A).addresses())
                .as("other services of the cluster are not affected").containsExactly(f.service("west", "default", "api"));
    }

    @Test
    void theOnlyExportWithNoReadyEndpointLeavesTheAnswerEmpty() {
        ServiceDiscovery discovery = ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, serviceNotReadyIn("north", "ns1", "db"), List.of());
        DnsAnswer db = ask(discovery, "east", "db.ns1.svc.clusterset.local", DnsRecord.A);
        assertThat(db.rcode()).isEqualTo(Rcode.NOERROR);
        assertThat(db.answers()).isEmpty();
        assertThat(db.clusters()).containsExactly(new ClusterVerdict("north", Verdict.NO_READY_ENDPOINTS));
        assertThat(ask(ServiceDiscovery.of(f.plan), "east", "db.ns1.svc.clusterset.local", DnsRecord.A).addresses())
                .as("a topology file's services are all ready").containsExactly(f.service("north", "ns1", "db"));
    }

    @Test
    void anImportedClusterSetIpExportWhoseEndpointIsNotReadyIsLeftOut() {
        ImportedExport cache = new ImportedExport("west", "default", "cache", false, Optional.of(Ipv4Address.parse("242.0.128.200")), false,
                List.of(), List.of(new ServicePort(6379, 6379, Protocol.TCP)));
        DnsAnswer answer = ask(ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, PodReadiness.ALL, List.of(cache)), "east",
                "cache.default.svc.clusterset.local", DnsRecord.A);
        assertThat(answer.rcode()).isEqualTo(Rcode.NOERROR);
        assertThat(answer.answers()).isEmpty();
        assertThat(answer.clusters()).containsExactly(new ClusterVerdict("west", Verdict.NO_READY_ENDPOINTS));
    }

    @Test
    void anImportedExportOfAKnownClusterIsAnsweredLikeAPlannedOne() {
        Ipv4Address imported = Ipv4Address.parse("242.0.128.200");
        ImportedExport cache = new ImportedExport("west", "default", "cache", false, Optional.of(imported), true, List.of(),
                List.of(new ServicePort(6379, 6379, Protocol.TCP, Optional.of("redis"))));
        ServiceDiscovery discovery = ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, PodReadiness.ALL, List.of(cache));

        assertThat(ask(discovery, "east", "cache.default.svc.clusterset.local", DnsRecord.A).addresses()).containsExactly(imported);
        assertThat(ask(discovery, "east", "_redis._tcp.cache.default.svc.clusterset.local", DnsRecord.SRV).answers())
                .containsExactly(new DnsRecord.Location("_redis._tcp.cache.default.svc.clusterset.local", ServiceDiscovery.TTL, 0, 50, 6379,
                        "west.cache.default.svc.clusterset.local"));
        assertThat(ask(discovery, "north", "cache.default.svc.clusterset.local", DnsRecord.A).clusters())
                .as("the policy still applies to imported exports").containsExactly(new ClusterVerdict("west", Verdict.KEPT_APART));
        assertThat(ask(ServiceDiscovery.of(f.plan, new GatewayHealth(java.util.Set.of("west")), PodReadiness.ALL, List.of(cache)),
                "east", "cache.default.svc.clusterset.local", DnsRecord.A).addresses()).isEmpty();
    }

    @Test
    void thePlansExportWinsOverAnImportNamingTheSameCluster() {
        ImportedExport south = new ImportedExport("west", "myproject", "http", true, Optional.empty(), true,
                List.of(new ImportedExport.Pod("http-9", Ipv4Address.parse("242.0.128.9"))), List.of());
        ServiceDiscovery discovery = ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, PodReadiness.ALL, List.of(south));
        assertThat(ask(discovery, "east", "http.myproject.svc.clusterset.local", DnsRecord.A).addresses())
                .as("the plan's export of west wins over an import naming west").hasSize(3)
                .doesNotContain(Ipv4Address.parse("242.0.128.9"));
    }

    @Test
    void anImportedExportOfAClusterWithNoKnownGatewayIsLeftOut() {
        ImportedExport fromSouth = new ImportedExport("south", "ns1", "db", false, Optional.of(Ipv4Address.parse("242.3.0.254")), true, List.of(),
                List.of(new ServicePort(5432, 5432, Protocol.TCP)));
        ServiceDiscovery discovery = ServiceDiscovery.of(f.plan, GatewayHealth.ALL_UP, PodReadiness.ALL, List.of(fromSouth));

        DnsAnswer db = ask(discovery, "east", "db.ns1.svc.clusterset.local", DnsRecord.A);
        assertThat(db.addresses()).containsExactly(f.service("north", "ns1", "db"));
        assertThat(db.clusters()).containsExactly(new ClusterVerdict("north", Verdict.ANSWERS), new ClusterVerdict("south", Verdict.GATEWAYS_DOWN));
        assertThat(ask(discovery.upstream(), "east", "south.db.ns1.svc.clusterset.local", DnsRecord.A).addresses())
                .as("Lighthouse would answer it").containsExactly(Ipv4Address.parse("242.3.0.254"));
    }
}
