package io.periscope.plan.dns;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.dns.ClusterVerdict.Verdict;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The answers of seed 000's service discovery, with Globalnet: see dns/discovery.yaml. */
class ServiceDiscoveryAnswersLikeLighthouse {

    private final DiscoveryFixture f = new DiscoveryFixture();
    private final ServiceDiscovery discovery = ServiceDiscovery.of(f.plan);
    private static final Ipv4Prefix GLOBAL = Ipv4Prefix.parse("242.0.0.0/8");

    private DnsAnswer ask(String from, String name, int type) {
        return discovery.answer(name, type, Optional.of(from), Rotation.FIRST);
    }

    @Test
    void aServiceNameIsTheAskingClustersOwnGlobalIpWhenItExportsTheService() {
        DnsAnswer fromEast = ask("east", "nginx.default.svc.clusterset.local", DnsRecord.A);
        assertThat(fromEast.rcode()).isEqualTo(Rcode.NOERROR);
        assertThat(fromEast.addresses()).containsExactly(f.service("east", "default", "nginx"));
        assertThat(GLOBAL.contains(fromEast.addresses().getFirst())).as("Globalnet answers the global IP, not 10.96.0.50").isTrue();
        assertThat(fromEast.clusters()).containsExactly(new ClusterVerdict("east", Verdict.ANSWERS),
                new ClusterVerdict("west", Verdict.NOT_PREFERRED), new ClusterVerdict("north", Verdict.NOT_PREFERRED));
        assertThat(ask("west", "nginx.default.svc.clusterset.local", DnsRecord.A).addresses())
                .containsExactly(f.service("west", "default", "nginx"));
    }

    @Test
    void withoutTheAskingClusterTheAnswerRotatesRoundRobinAcrossTheExportingClusters() {
        AtomicInteger turn = new AtomicInteger();
        Rotation counting = (service, candidates) -> turn.getAndIncrement();
        List<Ipv4Address> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.addAll(discovery.answer("api.default.svc.clusterset.local", DnsRecord.A, Optional.of("east"), counting).addresses());
        }
        Ipv4Address west = f.service("west", "default", "api");
        Ipv4Address north = f.service("north", "default", "api");
        assertThat(answers).containsExactly(west, north, west, north);
    }

    @Test
    void aClusterQualifiedNameIsThatClustersAnswerOnly() {
        assertThat(ask("east", "north.nginx.default.svc.clusterset.local", DnsRecord.A).addresses())
                .containsExactly(f.service("north", "default", "nginx"));
        DnsAnswer notExported = ask("east", "east.api.default.svc.clusterset.local", DnsRecord.A);
        assertThat(notExported.rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(notExported.note()).contains("cluster east does not export default/api (exported by: west, north)");
    }

    @Test
    void aHeadlessServiceHasOneRecordPerReadyPodWithThePodsGlobalIps() {
        DnsAnswer all = ask("east", "http.myproject.svc.clusterset.local", DnsRecord.A);
        assertThat(all.addresses()).containsExactly(f.pod("west", "myproject", "http", "http-0"),
                f.pod("west", "myproject", "http", "http-1"), f.pod("north", "myproject", "http", "http-0"));
        assertThat(all.addresses()).allMatch(GLOBAL::contains);
        assertThat(ask("east", "http-1.west.http.myproject.svc.clusterset.local", DnsRecord.A).addresses())
                .containsExactly(f.pod("west", "myproject", "http", "http-1"));
        assertThat(ask("east", "north.http.myproject.svc.clusterset.local", DnsRecord.A).addresses())
                .containsExactly(f.pod("north", "myproject", "http", "http-0"));
        DnsAnswer noPod = ask("east", "http-7.west.http.myproject.svc.clusterset.local", DnsRecord.A);
        assertThat(noPod.rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(noPod.note()).contains("myproject/http of cluster west has no headless pod 'http-7' (pods: http-0, http-1)");
    }

    @Test
    void srvRecordsNameTheClusterOfAClusterIpServiceAndEachPodOfAHeadlessOne() {
        DnsAnswer http = ask("west", "_http._tcp.nginx.default.svc.clusterset.local", DnsRecord.SRV);
        assertThat(http.answers()).containsExactly(new DnsRecord.Location("_http._tcp.nginx.default.svc.clusterset.local", 5, 0, 50, 8080,
                "west.nginx.default.svc.clusterset.local"));
        assertThat(http.additionals()).containsExactly(new DnsRecord.Address("west.nginx.default.svc.clusterset.local", 5,
                f.service("west", "default", "nginx")));
        DnsAnswer web = ask("east", "_web._tcp.http.myproject.svc.clusterset.local", DnsRecord.SRV);
        assertThat(web.answers()).extracting(r -> ((DnsRecord.Location) r).target()).containsExactly(
                "http-0.west.http.myproject.svc.clusterset.local", "http-1.west.http.myproject.svc.clusterset.local",
                "http-0.north.http.myproject.svc.clusterset.local");
        assertThat(web.answers()).allMatch(r -> ((DnsRecord.Location) r).port() == 8080);
        DnsAnswer dnsOfNorth = ask("east", "_dns._udp.north.http.myproject.svc.clusterset.local", DnsRecord.SRV);
        assertThat(dnsOfNorth.answers()).extracting(r -> ((DnsRecord.Location) r).port()).containsExactly(53);
        assertThat(ask("east", "nginx.default.svc.clusterset.local", DnsRecord.SRV).answers()).hasSize(1);
    }

    @Test
    void nxdomainIsForNamesThatDoNotExistAndNodataForTypesANameDoesNotHave() {
        assertThat(ask("east", "nope.default.svc.clusterset.local", DnsRecord.A).rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(ask("east", "_grpc._tcp.nginx.default.svc.clusterset.local", DnsRecord.SRV).rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(ask("east", "a.b.c.d.e.f.svc.clusterset.local", DnsRecord.A).rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(ask("east", "nginx.default.svc.clusterset.local", DnsRecord.AAAA).noData()).isTrue();
        assertThat(ask("east", "_http._tcp.nginx.default.svc.clusterset.local", DnsRecord.A).noData()).isTrue();
        assertThat(ask("east", "default.svc.clusterset.local", DnsRecord.A).noData()).as("a namespace is an empty non-terminal").isTrue();
        assertThat(ask("east", "_tcp.nginx.default.svc.clusterset.local", DnsRecord.SRV).noData()).isTrue();
        assertThat(ask("east", "nosuchns.svc.clusterset.local", DnsRecord.A).rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(ask("east", "clusterset.local", DnsRecord.SOA).answers()).containsExactly(discovery.soa());
        assertThat(ask("east", "nginx.default.svc.cluster.local", DnsRecord.A).rcode()).isEqualTo(Rcode.REFUSED);
    }

    @Test
    void namesMatchWhateverTheCaseAndAnswersKeepTheAskedSpellingAndLighthousesTtl() {
        DnsAnswer answer = ask("east", "NGINX.Default.SVC.ClusterSet.Local.", DnsRecord.A);
        assertThat(answer.answers()).containsExactly(new DnsRecord.Address("NGINX.Default.SVC.ClusterSet.Local", 5,
                f.service("east", "default", "nginx")));
        assertThat(ServiceDiscovery.TTL).isEqualTo(5);
    }

    @Test
    void aClusterThePolicyKeepsApartIsLeftOutAndTheAnswerIsAnEmptyNoerrorWhenNoneIsLeft() {
        DnsAnswer db = ask("west", "db.ns1.svc.clusterset.local", DnsRecord.A);
        assertThat(db.rcode()).as("Lighthouse answers a known service it cannot answer for with an empty NOERROR").isEqualTo(Rcode.NOERROR);
        assertThat(db.answers()).isEmpty();
        assertThat(db.nobodyLeft()).isTrue();
        assertThat(db.clusters()).containsExactly(new ClusterVerdict("north", Verdict.KEPT_APART));
        assertThat(ask("east", "db.ns1.svc.clusterset.local", DnsRecord.A).addresses()).containsExactly(f.service("north", "ns1", "db"));
        DnsAnswer http = ask("west", "http.myproject.svc.clusterset.local", DnsRecord.A);
        assertThat(http.addresses()).containsExactly(f.pod("west", "myproject", "http", "http-0"), f.pod("west", "myproject", "http", "http-1"));
        assertThat(http.clusters()).contains(new ClusterVerdict("north", Verdict.KEPT_APART));
        assertThat(discovery.upstream().answer("db.ns1.svc.clusterset.local", DnsRecord.A, Optional.of("west"), Rotation.FIRST).addresses())
                .as("Lighthouse itself answers regardless of the policy").containsExactly(f.service("north", "ns1", "db"));
    }

    @Test
    void aClusterWhoseGatewaysAreAllDownIsLeftOut() {
        ServiceDiscovery reported = ServiceDiscovery.of(f.plan, new GatewayHealth(java.util.Set.of("west")));
        DnsAnswer api = reported.answer("api.default.svc.clusterset.local", DnsRecord.A, Optional.of("east"), (s, n) -> 0);
        assertThat(api.addresses()).containsExactly(f.service("north", "default", "api"));
        assertThat(api.clusters()).contains(new ClusterVerdict("west", Verdict.GATEWAYS_DOWN));
        DnsAnswer fromWest = reported.answer("db.ns1.svc.clusterset.local", DnsRecord.A, Optional.of("west"), Rotation.FIRST);
        assertThat(fromWest.clusters()).containsExactly(new ClusterVerdict("north", Verdict.OWN_GATEWAYS_DOWN));
        assertThat(reported.answer("nginx.default.svc.clusterset.local", DnsRecord.A, Optional.of("west"), Rotation.FIRST).addresses())
                .as("the asking cluster's own export needs no gateway").containsExactly(f.service("west", "default", "nginx"));

        DiscoveryFixture failed = new DiscoveryFixture(DiscoveryFixture.load().withoutNodes(List.of("north/north-gw")));
        DnsAnswer db = ServiceDiscovery.of(failed.plan).answer("db.ns1.svc.clusterset.local", DnsRecord.A, Optional.of("east"), Rotation.FIRST);
        assertThat(db.rcode()).isEqualTo(Rcode.NOERROR);
        assertThat(db.answers()).isEmpty();
        assertThat(db.clusters()).containsExactly(new ClusterVerdict("north", Verdict.GATEWAYS_DOWN));
    }

    @Test
    void aClusterQualifiedNameOfAClusterKeptApartIsEmptyAndOfAClusterNotExportingTheServiceIsNxdomain() {
        DnsAnswer apart = ask("west", "north.db.ns1.svc.clusterset.local", DnsRecord.A);
        assertThat(apart.rcode()).isEqualTo(Rcode.NOERROR);
        assertThat(apart.answers()).isEmpty();
        assertThat(apart.clusters()).containsExactly(new ClusterVerdict("north", Verdict.KEPT_APART));
        assertThat(apart.clusters().getFirst().verdict().periscopesOwn()).isTrue();
        assertThat(discovery.upstream().answer("north.db.ns1.svc.clusterset.local", DnsRecord.A, Optional.of("west"), Rotation.FIRST)
                .addresses()).as("Lighthouse answers the named cluster whatever the policy").containsExactly(f.service("north", "ns1", "db"));
        assertThat(ask("east", "east.db.ns1.svc.clusterset.local", DnsRecord.A).rcode())
                .as("the resolver finds no such cluster of the service (resolver.go, getClusterIPRecord)").isEqualTo(Rcode.NXDOMAIN);
    }

    @Test
    void theZoneFileHoldsEveryNameWithTheAnswersOfTheFirstTurn() {
        String zone = ZoneFile.render(discovery, Optional.of("east"), Ipv4Address.parse("127.0.0.1"));
        assertThat(zone).startsWith("$ORIGIN clusterset.local.\n$TTL 5\nclusterset.local. 5 IN SOA ");
        assertThat(zone).contains("nginx.default.svc.clusterset.local. 5 IN A " + f.service("east", "default", "nginx") + "\n");
        assertThat(zone).contains("_web._tcp.http.myproject.svc.clusterset.local. 5 IN SRV 0 50 8080 http-0.north.http.myproject.svc.clusterset.local.\n");
        assertThat(zone).contains("http-1.west.http.myproject.svc.clusterset.local. 5 IN A " + f.pod("west", "myproject", "http", "http-1") + "\n");
    }
}
