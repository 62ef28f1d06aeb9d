package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code trace --fail}: a TCP connection established through the failed gateway moves to another,
 * whose conntrack has never seen it. Its next segment, an ACK, is picked up there as a new connection
 * (nf_conntrack_tcp_loose=1, every node's default) and that gateway's NAT rules apply to it anew.
 * Without Globalnet nothing is translated and the connection survives; with Globalnet the new gateway
 * SNATs it to its own global address, so the server gets it from another address than the
 * connection's and answers with a reset. Text and JSON say so, flow by flow.
 */
class TraceFailShowsWhatTheNewGatewayDoesWithMovedConnections {

    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String example(String name) {
        return EXAMPLES.resolve(name).toString();
    }

    @Test
    void withoutGlobalnetTheNewGatewayPicksTheConnectionUpAndItSurvives() {
        PeriscopeRun run = PeriscopeRun.of("trace", example("mag-vanilla.yaml"), "--fail", "cluster1/gw-1");

        assertThat(run.status()).as(run.err()).isZero();
        String moved = run.out().substring(run.out().indexOf("moved TCP connections:"));
        assertThat(moved).contains("client-to-nginx: connections established through the failed node, their next segment (an ACK) after the move:",
                "path 1 of 2 via cluster1/gw-2, cluster2/gw-3: the connection survives",
                "path 2 of 2 via cluster1/gw-2, cluster2/gw-4: the connection survives",
                "cluster1/gw-2 (forward): no entry for it, picked up mid-stream as a new connection (nf_conntrack_tcp_loose=1)")
                .doesNotContain("snat to", "reset");
    }

    @Test
    void withGlobalnetTheNewGatewaySnatsItAnewAndTheServerResetsIt() {
        PeriscopeRun run = PeriscopeRun.of("trace", example("mag-globalnet.yaml"), "--fail", "cluster1/gw-1");

        assertThat(run.status()).as(run.err()).isZero();
        String moved = run.out().substring(run.out().indexOf("moved TCP connections:"));
        assertThat(moved).contains("path 1 of 2 via cluster1/gw-2, cluster2/gw-3: reset: cluster1/gw-2 SNATs the segment anew",
                "cluster1/gw-2 (forward): no entry for it, picked up mid-stream as a new connection (nf_conntrack_tcp_loose=1); snat to 242.254.1.9:40000"
                        + " (nat/SM-GN-EGRESS-CLUSTER: ",
                "cluster2/gw-3 (forward): saw the connection as 242.254.1.1:40000 -> 242.254.2.254:80 before")
                .doesNotContain("survives");
    }

    @Test
    void theJsonAddsMovedConnectionsToTheFlowsWhoseConnectionsMove() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("trace", example("mag-globalnet.yaml"), "--json", "--fail", "cluster1/gw-1");

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode moved = JSON.readTree(run.out()).get("flows").get(0).get("movedConnections");
        assertThat(moved.get("established")).hasSize(2);
        assertThat(moved.get("established").get(0).get("src").asText()).isEqualTo("10.0.0.1");
        List<String> fates = new ArrayList<>();
        moved.get("paths").forEach(p -> fates.add(p.get("fate").asText()));
        assertThat(fates).containsExactly("reset", "reset");
        JsonNode gateway = moved.get("paths").get(0).get("newHosts").get(0);
        assertThat(gateway.get("node").asText()).isEqualTo("cluster1/gw-2");
        assertThat(gateway.get("conntrack").asText()).isEqualTo("new");
        assertThat(gateway.get("nat").get(0).get("kind").asText()).isEqualTo("snat");
        assertThat(gateway.get("nat").get(0).get("packet").get("src").asText()).isEqualTo("242.254.1.9");
    }

    @Test
    void udpFlowsAndTracesWithoutFailGetNone() throws Exception {
        JsonNode healthy = JSON.readTree(PeriscopeRun.of("trace", example("mag-globalnet.yaml"), "--json").out());
        assertThat(healthy.get("flows").get(0).has("movedConnections")).isFalse();

        // The UDP flow of mag-3-gateways is not a TCP connection: only the TCP flow is listed.
        PeriscopeRun failed = PeriscopeRun.of("trace", example("mag-3-gateways.yaml"), "--fail", "cluster1/gw-1");
        assertThat(failed.out().substring(failed.out().indexOf("moved TCP connections:"))).contains("client-to-nginx:")
                .doesNotContain("client-to-nginx-udp:");
    }
}
