package io.periscope.simulator.scenarios;

import io.periscope.model.topology.Disposition;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import static io.periscope.simulator.scenarios.DocumentedSteps.lines;
import static io.periscope.simulator.scenarios.DocumentedSteps.pathThrough;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004's two documented packet flows, node by node, with the addresses after each step, on
 * topologies that match the document (examples/mag-vanilla.yaml and examples/mag-globalnet.yaml).
 */
class MultiActiveGatewayFlowsFollowSeed004 {

    @Test
    void withoutGlobalnetTheServiceTrafficReturnsThroughTheGatewayThatDnatedIt() throws Exception {
        Simulator simulator = DocumentedSteps.simulator("mag-vanilla.yaml");
        FlowTrace trace = simulator.trace(DocumentedSteps.load("mag-vanilla.yaml").flow("client-to-nginx").orElseThrow());
        // 2 local gateways x 2 remote gateways, and each reply may return to either local gateway.
        assertThat(trace.paths()).hasSize(8).allMatch(p -> p.disposition() == Disposition.DELIVERED);

        // The document's choice: worker -> GW-2 -> GW-4, reply GW-4 -> GW-1.
        PathTrace path = pathThrough(trace, "via 240.18.0.8", "via 241.18.0.9", "via 241.18.0.6");
        assertThat(lines(path.forward())).containsExactly(
                "cluster1/default/client: route main via 10.1.128.1 | SRC: 10.1.128.4 DST: 100.2.0.132",
                // 1. multipath route on the worker, over vx-submariner to one of the gateways
                "cluster1/worker-1: route main via 240.18.0.8 | SRC: 10.1.128.4 DST: 100.2.0.132",
                // 2. GW-2 routes over table 100's multipath route to one of the remote gateways
                "cluster1/gw-2: route 100 via 241.18.0.9 | SRC: 10.1.128.4 DST: 100.2.0.132",
                // 3a. kube-proxy DNATs the cluster IP to the backend pod
                "cluster2/gw-4: dnat KUBE-SEP | SRC: 10.1.128.4 DST: 10.2.128.5",
                // 3c. routed by the CNI to the pod's node
                "cluster2/gw-4: route main via 172.18.0.12 | SRC: 10.1.128.4 DST: 10.2.128.5",
                // 3b. SNAT to the gateway's CNI address, because the connection was DNATed
                "cluster2/gw-4: snat SUBMARINER-POSTROUTING | SRC: 10.2.192.0 DST: 10.2.128.5",
                "cluster2/worker-2: route main dev p-nginx-7d4f | SRC: 10.2.192.0 DST: 10.2.128.5",
                // 4. delivered
                "cluster2/default/nginx-7d4f: deliver | SRC: 10.2.192.0 DST: 10.2.128.5");
        assertThat(lines(path.reply())).containsExactly(
                "cluster2/default/nginx-7d4f: route main via 10.2.128.1 | SRC: 10.2.128.5 DST: 10.2.192.0",
                // 4. back to GW-4 thanks to the SNAT of 3b
                "cluster2/worker-2: route main via 172.18.0.9 | SRC: 10.2.128.5 DST: 10.2.192.0",
                // 5a. reverse of 3b
                "cluster2/gw-4: unsnat | SRC: 10.2.128.5 DST: 10.1.128.4",
                // 5c. either local gateway of cluster1 (no NAT on the originating side)
                "cluster2/gw-4: route 100 via 241.18.0.6 | SRC: 10.2.128.5 DST: 10.1.128.4",
                // 5b. reverse of 3a
                "cluster2/gw-4: undnat | SRC: 100.2.0.132 DST: 10.1.128.4",
                // 6a. GW-1 has no state for this connection: accepted and forwarded, SNAT skipped (6b)
                "cluster1/gw-1: route main via 172.18.0.10 | SRC: 100.2.0.132 DST: 10.1.128.4",
                "cluster1/worker-1: route main dev p-client | SRC: 100.2.0.132 DST: 10.1.128.4",
                "cluster1/default/client: deliver | SRC: 100.2.0.132 DST: 10.1.128.4");
        assertThat(path.reply().stream().filter(h -> h.node().toString().equals("cluster1/gw-1")).flatMap(h -> h.steps().stream())
                .map(s -> s.kind())).contains("filter").doesNotContain("snat");
    }

    @Test
    void withGlobalnetTheReplyReturnsToTheGatewayOwningTheEgressAddress() throws Exception {
        Simulator simulator = DocumentedSteps.simulator("mag-globalnet.yaml");
        FlowTrace trace = simulator.trace(DocumentedSteps.load("mag-globalnet.yaml").flow("client-to-nginx").orElseThrow());
        // The metric-98 routes pin each reply to the gateway that did the SNAT: 2 x 2 paths, not 8.
        assertThat(trace.paths()).hasSize(4).allMatch(p -> p.disposition() == Disposition.DELIVERED);

        PathTrace path = pathThrough(trace, "via 240.18.0.8", "via 241.18.0.9");
        assertThat(lines(path.forward())).containsExactly(
                "cluster1/default/client: route main via 10.0.128.1 | SRC: 10.0.128.4 DST: 242.254.2.254",
                // 1. multipath route on the worker to one of the gateways (GW-2 here)
                "cluster1/worker-1: route main via 240.18.0.8 | SRC: 10.0.128.4 DST: 242.254.2.254",
                // 2b. table 100 multipath to one of the remote gateways (GW-4 here)
                "cluster1/gw-2: route 100 via 241.18.0.9 | SRC: 10.0.128.4 DST: 242.254.2.254",
                // 2a. SNAT to one of GW-2's own ClusterGlobalEgressIPs (the kernel's hash picks .9 here)
                "cluster1/gw-2: snat SM-GN-EGRESS-CLUSTER | SRC: 242.254.1.9 DST: 242.254.2.254",
                // 3a. the service's global IP is an external IP of the mirrored service: kube-proxy DNATs
                "cluster2/gw-4: dnat KUBE-SEP | SRC: 242.254.1.9 DST: 10.0.128.5",
                "cluster2/gw-4: route main via 172.18.0.12 | SRC: 242.254.1.9 DST: 10.0.128.5",
                // 3b. SNAT to GW-4's CNI address
                "cluster2/gw-4: snat SUBMARINER-POSTROUTING | SRC: 10.0.192.1 DST: 10.0.128.5",
                "cluster2/worker-2: route main dev p-nginx-7d4f | SRC: 10.0.192.1 DST: 10.0.128.5",
                "cluster2/default/nginx-7d4f: deliver | SRC: 10.0.192.1 DST: 10.0.128.5");
        assertThat(lines(path.reply())).containsExactly(
                "cluster2/default/nginx-7d4f: route main via 10.0.128.1 | SRC: 10.0.128.5 DST: 10.0.192.1",
                "cluster2/worker-2: route main via 172.18.0.9 | SRC: 10.0.128.5 DST: 10.0.192.1",
                // 5a. back to the original gateway's egress address
                "cluster2/gw-4: unsnat | SRC: 10.0.128.5 DST: 242.254.1.9",
                // 5c. the metric-98 route for that address, to the gateway that owns it
                "cluster2/gw-4: route 100 via 241.18.0.8 | SRC: 10.0.128.5 DST: 242.254.1.9",
                // 5b. back to the service's global IP
                "cluster2/gw-4: undnat | SRC: 242.254.2.254 DST: 242.254.1.9",
                // 6. GW-2 reverses its SNAT and the CNI delivers
                "cluster1/gw-2: unsnat | SRC: 242.254.2.254 DST: 10.0.128.4",
                "cluster1/gw-2: route main via 172.18.0.10 | SRC: 242.254.2.254 DST: 10.0.128.4",
                "cluster1/worker-1: route main dev p-client | SRC: 242.254.2.254 DST: 10.0.128.4",
                "cluster1/default/client: deliver | SRC: 242.254.2.254 DST: 10.0.128.4");
    }
}
