package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An OVN-Kubernetes cluster: plan prints its logical network as one ovn-nbctl transaction, trace shows its routers as hops. */
class PlanAndTraceShowTheOvnLogicalNetwork {

    @TempDir
    Path dir;

    private String topology() throws Exception {
        Path file = dir.resolve("ovn.yaml");
        Files.writeString(file, """
                name: ovn
                defaults: {cableDriver: vxlan}
                clusters:
                  - name: east
                    cni: ovn-kubernetes
                    podCIDRs: [10.10.0.0/16]
                    serviceCIDRs: [10.110.0.0/16]
                    nodes:
                      - {name: east-gw, ip: 192.168.10.2, cniIP: 10.10.0.1, gateway: true}
                      - {name: east-worker, ip: 192.168.10.3, cniIP: 10.10.1.1}
                    pods: [{name: web, node: east-worker, ip: 10.10.1.10}]
                  - name: west
                    podCIDRs: [10.20.0.0/16]
                    serviceCIDRs: [10.120.0.0/16]
                    nodes:
                      - {name: west-gw, ip: 192.168.20.2, cniIP: 10.20.0.1, gateway: true}
                    pods: [{name: nginx, node: west-gw, ip: 10.20.0.10}]
                """);
        return file.toString();
    }

    @Test
    void planPrintsTheNorthboundTransactionOfOnlyTheOvnCluster() throws Exception {
        String file = topology();
        PeriscopeRun text = PeriscopeRun.of("plan", file);
        assertThat(text.status()).isZero();
        assertThat(text.out()).contains("=== east OVN northbound database (one ovn-nbctl transaction)")
                .contains("-- lr-policy-add ovn_cluster_router 20000 'ip4.dst == 10.20.0.0/16' reroute 169.254.254.1")
                .contains("-- --policy=dst-ip lr-route-add submariner_router 10.20.0.0/16 169.254.254.10 submariner_up_lrp")
                .contains("'options:chassis=\"east-gw\"'")
                .doesNotContain("=== west OVN");

        JsonNode json = new ObjectMapper().readTree(PeriscopeRun.of("plan", file, "--json").out());
        assertThat(json.get("ovn")).hasSize(1);
        assertThat(json.get("ovn").get(0).get("cluster").asText()).isEqualTo("east");
        List<String> arguments = new ArrayList<>();
        json.get("ovn").get(0).get("nbctl").forEach(n -> arguments.add(n.asText()));
        assertThat(arguments).contains("submariner_router", "name=\"submariner_join\"", "name=\"submariner_gateway\"");

        // The text is for a shell: read back by one, it gives the very arguments of --json.
        String transaction = text.out().substring(text.out().indexOf("ovn-nbctl \\"), text.out().indexOf("# br-submariner"));
        Process shell = new ProcessBuilder("sh", "-c", "printf '%s\\n'" + transaction.substring("ovn-nbctl".length())).start();
        List<String> read = new String(shell.getInputStream().readAllBytes()).lines().toList();
        assertThat(shell.waitFor()).isZero();
        assertThat(read).isEqualTo(arguments);
    }

    @Test
    void withBehaviourUpstreamPlanAndTraceRerouteToTheGatewaysManagementPortWithoutSubmarinerRouterOrBridges() throws Exception {
        Path file = Path.of(topology());
        Files.writeString(file, "behaviour: upstream\n" + Files.readString(file));
        PeriscopeRun text = PeriscopeRun.of("plan", file.toString());
        assertThat(text.status()).isZero();
        assertThat(text.out()).contains("-- lr-policy-add ovn_cluster_router 20000 'ip4.dst == 10.20.0.0/16' reroute 10.10.0.1")
                // Submariner's route on OVN-Kubernetes' router carries its mark, which lr-route-add cannot write.
                .contains("create logical_router_static_route 'ip_prefix=\"10.20.0.0/16\"' 'nexthop=\"10.10.0.1\"' 'policy=\"dst-ip\"'"
                        + " 'external_ids:submariner=\"periscope\"'")
                .contains("-- add Logical_Router ovn_cluster_router static_routes @row")
                .doesNotContain("lr-route-add ovn_cluster_router 10.20.0.0/16")
                .doesNotContain("submariner_router").doesNotContain("br-submariner");

        PeriscopeRun json = PeriscopeRun.of("trace", file.toString(), "--from", "east/default/web", "--to", "west/default/nginx:80", "--json");
        assertThat(json.status()).isZero();
        JsonNode hops = new ObjectMapper().readTree(json.out()).get("flows").get(0).get("paths").get(0).get("forward").get("hops");
        JsonNode step = hops.get(1).get("steps").get(0);
        assertThat(step.get("table").asText()).isEqualTo("ovn policy");
        assertThat(step.get("via").asText()).isEqualTo("10.10.0.1");
        assertThat(step.get("dev").asText()).isEqualTo("rtos-east-gw");
        assertThat(hops.get(2).get("node").asText()).isEqualTo("east/east-gw");
        assertThat(hops.get(2).get("in").asText()).isEqualTo("ovn-k8s-mp0");
    }

    @Test
    void traceJsonNamesTheLogicalRoutersAsHopsWithTheirRouteSteps() throws Exception {
        PeriscopeRun json = PeriscopeRun.of("trace", topology(), "--from", "east/default/web", "--to", "west/default/nginx:80", "--json");
        assertThat(json.status()).isZero();
        JsonNode path = new ObjectMapper().readTree(json.out()).get("flows").get(0).get("paths").get(0);
        assertThat(path.get("disposition").asText()).isEqualTo("delivered");
        JsonNode router = path.get("forward").get("hops").get(1);
        assertThat(router.get("node").asText()).isEqualTo("east/ovn_cluster_router");
        assertThat(router.get("in").asText()).isEqualTo("rtos-east-worker");
        JsonNode step = router.get("steps").get(0);
        assertThat(step.get("kind").asText()).isEqualTo("route");
        assertThat(step.get("table").asText()).isEqualTo("ovn policy");
        assertThat(step.get("via").asText()).isEqualTo("169.254.254.1");
        assertThat(step.get("dev").asText()).isEqualTo("ovn_cluster_subm_lrp");
    }
}
