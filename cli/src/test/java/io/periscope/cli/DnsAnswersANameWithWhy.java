package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.load.TopologyLoader;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolver;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code periscope dns} on the shipped examples: the answer, the clusters considered, and the reasons. */
class DnsAnswersANameWithWhy {

    private static final String CLIENT_SERVER = "../examples/client-server.yaml";
    private static final String GLOBALNET = "../examples/globalnet-egress.yaml";

    @Test
    void aClusterThePolicyKeepsApartIsLeftOutByPeriscopeAndTheAnswerIsAnEmptyNoerror() {
        PeriscopeRun run = PeriscopeRun.of("dns", CLIENT_SERVER, "shop.shop.svc.clusterset.local", "--from", "client2");

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).contains("NOERROR (empty: the service exists, but no cluster is left to answer), TTL 5\n",
                        "  client1  left out by Periscope: the connectivity policy keeps it apart from the asking cluster\n",
                        "Periscope's own check", "why: no cluster is left to answer")
                .doesNotContain("NXDOMAIN").doesNotContain("\nanswer:");
        assertThat(PeriscopeRun.of("dns", CLIENT_SERVER, "shop.shop.svc.clusterset.local", "--from", "server").out())
                .contains("shop.shop.svc.clusterset.local. 5 IN A 100.11.0.30\n", "  client1  answers\n");
    }

    @Test
    void theJsonAnswerCarriesTheGlobalIpsOfAHeadlessServicesPods() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("dns", GLOBALNET, "http.myproject.svc.clusterset.local", "--from", "east", "--json");

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        JsonNode answer = new ObjectMapper().readTree(run.out());
        assertThat(answer.get("rcode").asText()).isEqualTo("NOERROR");
        assertThat(answer.get("answers")).hasSize(2).allSatisfy(a -> assertThat(a.get("address").asText()).startsWith("242."));
        assertThat(answer.get("clusters").get(0).get("verdict").asText()).isEqualTo("answers");
    }

    @Test
    void theCommandAndTheSimulatorGiveTheSameAddress() throws Exception {
        var plan = Planner.plan(TopologyLoader.load(Path.of(GLOBALNET)));
        String simulated = new FlowResolver(plan).answer("", "nginx.default.svc.clusterset.local", "east").toString();

        PeriscopeRun run = PeriscopeRun.of("dns", GLOBALNET, "nginx.default.svc.clusterset.local", "--from", "east", "--json");

        assertThat(new ObjectMapper().readTree(run.out()).get("answers").get(0).get("address").asText()).isEqualTo(simulated);
    }

    @Test
    void aFailedGatewayLeavesItsClusterOut() {
        PeriscopeRun run = PeriscopeRun.of("dns", GLOBALNET, "nginx.default.svc.clusterset.local", "--from", "east", "--fail", "west/west-gw");

        assertThat(run.out()).contains("NOERROR (empty", "  west  left out by Periscope: all of its gateways are down\n");
    }

    @Test
    void aServiceNobodyExportsIsNxdomainWithoutClusters() {
        PeriscopeRun run = PeriscopeRun.of("dns", CLIENT_SERVER, "nope.shop.svc.clusterset.local", "--from", "client2");

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).contains("NXDOMAIN, TTL 5\n").doesNotContain("clusters considered").doesNotContain("left out by Periscope");
    }

    @Test
    void aClusterQualifiedNameOfAClusterThePolicyKeepsApartIsEmptyAndOfAClusterNotExportingItIsNxdomain() throws Exception {
        PeriscopeRun apart = PeriscopeRun.of("dns", CLIENT_SERVER, "client1.shop.shop.svc.clusterset.local", "--from", "client2", "--json");
        JsonNode answer = new ObjectMapper().readTree(apart.out());
        assertThat(answer.get("rcode").asText()).isEqualTo("NOERROR");
        assertThat(answer.get("answers")).isEmpty();
        assertThat(answer.get("clusters").get(0).get("verdict").asText()).isEqualTo("kept-apart");
        assertThat(answer.get("clusters").get(0).get("periscopesOwn").asBoolean()).isTrue();

        PeriscopeRun notExporting = PeriscopeRun.of("dns", CLIENT_SERVER, "server.shop.shop.svc.clusterset.local", "--from", "client1");
        assertThat(notExporting.status()).isEqualTo(ExitStatus.OK);
        assertThat(notExporting.out()).contains("NXDOMAIN", "cluster server does not export shop/shop");
    }

    @Test
    void aNameOutsideTheZoneAnUnknownClusterAndAnUnknownTypeAreUsageErrors() {
        PeriscopeRun outside = PeriscopeRun.of("dns", GLOBALNET, "example.org");
        assertThat(outside.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(outside.err()).contains("'example.org' is not in clusterset.local");
        assertThat(PeriscopeRun.of("dns", GLOBALNET, "nginx.default.svc.clusterset.local", "--from", "south").err())
                .contains("--from south: the file has no cluster 'south' (clusters: east, west)");
        assertThat(PeriscopeRun.of("dns", GLOBALNET, "nginx.default.svc.clusterset.local", "--type", "QQ").status())
                .isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(PeriscopeRun.of("dns", GLOBALNET).err()).contains("give a NAME to answer, --zone or --serve ADDRESS:PORT");
    }

    @Test
    void theZoneFileListsTheRecordsTheServerAnswers() {
        PeriscopeRun run = PeriscopeRun.of("dns", GLOBALNET, "--zone", "--from", "east");

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).startsWith("$ORIGIN clusterset.local.\n").contains(" IN SOA ", "http-0.west.http.myproject.svc.clusterset.local. 5 IN A 242.");
    }
}
