package io.periscope.dns;

import io.periscope.plan.dns.GatewayHealth;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.periscope.dns.WireClient.query;
import static org.assertj.core.api.Assertions.assertThat;

/** A real server on 127.0.0.1 answering for cluster a of served.yaml (no Globalnet: cluster and pod IPs). */
class ServerAnswersOverUdpAndTcp {

    @RegisterExtension
    static final ServedTopology served = new ServedTopology();

    @Test
    void aServiceNameGetsTheLocalClusterIpAuthoritativelyWithLighthousesTtlOverBothTransports() throws Exception {
        byte[] q = query(4711, "web.default.svc.clusterset.local", WireClient.A, Optional.empty());
        for (WireClient.Response r : List.of(served.client.udp(q), served.client.tcp(q))) {
            assertThat(r.id()).isEqualTo(4711);
            assertThat(r.rcode()).isZero();
            assertThat(r.authoritative()).isTrue();
            assertThat(r.answers()).containsExactly(new WireClient.Rr("web.default.svc.clusterset.local.", WireClient.A, 5, 1, "100.1.0.10"));
        }
    }

    @Test
    void aClusterQualifiedNameAndAHeadlessPodNameGetTheirOwnAddressesInTheAskedCase() throws Exception {
        assertThat(served.client.udp(query(1, "B.web.default.svc.clusterset.local", WireClient.A, Optional.empty())).answers())
                .containsExactly(new WireClient.Rr("B.web.default.svc.clusterset.local.", WireClient.A, 5, 1, "100.2.0.10"));
        assertThat(served.client.udp(query(2, "kv-7.b.kv.store.svc.clusterset.local", WireClient.A, Optional.empty())).data(WireClient.A))
                .containsExactly("10.2.2.17");
    }

    @Test
    void srvNamesThePortAndTheTargetWithItsAddressInTheAdditionalSection() throws Exception {
        WireClient.Response r = served.client.udp(query(3, "_http._tcp.web.default.svc.clusterset.local", WireClient.SRV, Optional.of(1232)));
        assertThat(r.data(WireClient.SRV)).containsExactly("0 50 80 a.web.default.svc.clusterset.local.");
        assertThat(r.additionals()).extracting(WireClient.Rr::data).contains("100.1.0.10");
        assertThat(r.additionals()).extracting(WireClient.Rr::type).containsExactly(WireClient.A, WireClient.OPT);
    }

    @Test
    void negativeAnswersCarryTheSoaNxdomainForMissingNamesNodataForMissingTypes() throws Exception {
        WireClient.Response missing = served.client.udp(query(5, "nope.default.svc.clusterset.local", WireClient.A, Optional.empty()));
        assertThat(missing.rcode()).isEqualTo(3);
        assertThat(missing.authority()).extracting(WireClient.Rr::type).containsExactly(WireClient.SOA);
        assertThat(missing.authority().getFirst().ttl()).isEqualTo(5);
        WireClient.Response noData = served.client.tcp(query(6, "web.default.svc.clusterset.local", WireClient.AAAA, Optional.empty()));
        assertThat(noData.rcode()).isZero();
        assertThat(noData.answers()).isEmpty();
        assertThat(noData.authority()).extracting(WireClient.Rr::type).containsExactly(WireClient.SOA);
        WireClient.Response elsewhere = served.client.udp(query(7, "example.org", WireClient.A, Optional.empty()));
        assertThat(elsewhere.rcode()).as("REFUSED outside clusterset.local").isEqualTo(5);
        assertThat(elsewhere.authoritative()).isFalse();
    }

    @Test
    void answersFollowTheZoneAsSoonAsItIsReplaced() throws Exception {
        byte[] q = query(8, "b.web.default.svc.clusterset.local", WireClient.A, Optional.empty());
        assertThat(served.client.udp(q).data(WireClient.A)).containsExactly("100.2.0.10");
        ServiceDiscovery before = served.zone.discovery();
        try {
            served.zone.replace(ServiceDiscovery.of(Planner.plan(served.set), new GatewayHealth(Set.of("b"))));
            WireClient.Response nobodyLeft = served.client.udp(q);
            assertThat(nobodyLeft.rcode()).as("b's gateways are down: nothing left to answer, an empty NOERROR").isZero();
            assertThat(nobodyLeft.answers()).isEmpty();
        } finally {
            served.zone.replace(before);
        }
        assertThat(served.client.udp(q).data(WireClient.A)).containsExactly("100.2.0.10");
    }
}
