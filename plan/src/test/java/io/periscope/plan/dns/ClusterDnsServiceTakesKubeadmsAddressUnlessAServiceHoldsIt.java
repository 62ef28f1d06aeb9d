package io.periscope.plan.dns;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterDnsServiceTakesKubeadmsAddressUnlessAServiceHoldsIt {

    private static Cluster cluster(String serviceCidr, String services) throws Exception {
        return TopologyLoader.parse("""
                name: dns-address
                clusters:
                  - name: east
                    podCIDRs: [10.244.0.0/16]
                    serviceCIDRs: [%s]
                    nodes:
                      - {name: gw, ip: 172.18.1.2, cniIP: 10.244.0.1, gateway: true}
                    services: [%s]
                """.formatted(serviceCidr, services), "dns-address.yaml").clusters().getFirst();
    }

    @Test
    void theTenthAddressOfTheFirstServiceCidrAsKubeadmChoosesIt() throws Exception {
        assertThat(ClusterDnsService.of(cluster("10.96.0.0/16", "")).orElseThrow().address()).isEqualTo(Ipv4Address.parse("10.96.0.10"));
    }

    @Test
    void aServiceHoldingItPushesTheDnsServiceToTheNextFreeAddress() throws Exception {
        Cluster east = cluster("10.96.0.0/16", "{name: nginx, clusterIP: 10.96.0.10, selector: {app: x}, ports: [{port: 80}]},"
                + " {name: web, clusterIP: 10.96.0.11, selector: {app: x}, ports: [{port: 80}]}");
        Ipv4Address dns = ClusterDnsService.of(east).orElseThrow().address();
        assertThat(dns).isEqualTo(Ipv4Address.parse("10.96.0.12"));
        assertThat(east.services()).noneMatch(s -> s.clusterIp().equals(java.util.Optional.of(dns)));
    }

    @Test
    void aSmallCidrFullBeyondTheTenthFallsBackBelowIt() throws Exception {
        assertThat(ClusterDnsService.of(cluster("10.96.0.0/29", "")).orElseThrow().address()).isEqualTo(Ipv4Address.parse("10.96.0.1"));
    }

    @Test
    void aCidrWithNoAddressLeftHasNoDnsService() throws Exception {
        assertThat(ClusterDnsService.of(cluster("10.96.0.0/30", "{name: a, clusterIP: 10.96.0.1, selector: {app: x}, ports: [{port: 80}]}, {name: b, clusterIP: 10.96.0.2, selector: {app: x}, ports: [{port: 80}]}, {name: c, clusterIP: 10.96.0.3, selector: {app: x}, ports: [{port: 80}]}"))).isEmpty();
    }
}
