package io.periscope.simulator.scenarios;

import io.periscope.model.load.TopologyLoader;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's MTU handler forces the MSS on every node of a Globalnet cluster set: on mag-globalnet
 * (vxlan cable, 1500-byte {@code eth0}) {@code --set-mss 1450} in mangle SUBMARINER-POSTROUTING. The
 * client's SYN offers 1460 and is lowered once, on its own node, before Globalnet's SNAT (the pod CIDR
 * is in SUBMARINER-LOCALCIDRS); later nodes find it no larger and leave it. The SYN-ACK is lowered on
 * the remote gateway that DNATed the SYN: seed 004 has it SNAT the SYN to its own CNI address, so the
 * server's node sees local addresses both ways and its rules do not match. Gateways annotated with a
 * smaller value lower the SYN again on its way to the pod, after the DNAT (the pod CIDR again).
 */
class GlobalnetForcesTheMssOfCrossClusterSyns {

    private static List<String> msses(List<Hop> hops) {
        return hops.stream().flatMap(h -> h.steps().stream().filter(s -> s instanceof Step.Mss)
                .map(s -> h.node() + " " + ((Step.Mss) s).from() + " -> " + ((Step.Mss) s).mss())).toList();
    }

    private static List<PathTrace> paths(Simulator simulator) throws Exception {
        FlowTrace trace = simulator.trace(simulator.plan().clusterSet().flows().getFirst());
        assertThat(trace.paths()).isNotEmpty();
        return trace.paths();
    }

    @Test
    void theClientsNodeLowersTheSynAndTheServersNodeTheSynAck() throws Exception {
        for (PathTrace path : paths(DocumentedSteps.simulator("mag-globalnet.yaml"))) {
            assertThat(msses(path.forward())).containsExactly("cluster1/worker-1 1460 -> 1450");
            // client, worker-1, a local gateway, then the remote gateway
            String remoteGateway = path.forward().get(3).node().toString();
            assertThat(remoteGateway).isIn("cluster2/gw-3", "cluster2/gw-4");
            assertThat(msses(path.reply())).containsExactly(remoteGateway + " 1460 -> 1450");
        }
    }

    @Test
    void annotatedRemoteGatewaysLowerTheArrivingSynAfterTheDnat() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "mag-globalnet.yaml"))
                .replace("{name: gw-3,", "{name: gw-3, tcpClampMss: 1200,").replace("{name: gw-4,", "{name: gw-4, tcpClampMss: 1200,");
        Simulator simulator = new Simulator(Planner.plan(TopologyLoader.parse(yaml, "mag-globalnet.yaml")));
        for (PathTrace path : paths(simulator)) {
            String remoteGateway = path.forward().get(3).node().toString();
            assertThat(msses(path.forward())).containsExactly("cluster1/worker-1 1460 -> 1450", remoteGateway + " 1450 -> 1200");
            assertThat(msses(path.reply())).containsExactly(remoteGateway + " 1460 -> 1200");
        }
    }

    @Test
    void withoutGlobalnetThePathMtuClampLowersTheSynsToTheTunnelsMtuLess40() throws Exception {
        // --clamp-mss-to-pmtu: the SYN leaves worker-1 by vx-submariner (1450), the SYN-ACK leaves the
        // remote gateway by vxlan-tunnel (1450); each is clamped once, to 1410.
        for (PathTrace path : paths(DocumentedSteps.simulator("mag-vanilla.yaml"))) {
            assertThat(msses(path.forward())).containsExactly("cluster1/worker-1 1460 -> 1410");
            assertThat(msses(path.reply())).singleElement().asString().endsWith(" 1460 -> 1410").contains("cluster2/gw-");
        }
    }
}
