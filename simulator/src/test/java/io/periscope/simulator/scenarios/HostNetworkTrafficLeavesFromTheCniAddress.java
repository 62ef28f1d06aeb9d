package io.periscope.simulator.scenarios;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's way for a node's own traffic to a remote cluster: main's route through
 * {@code vx-submariner} gives it no source, so the kernel takes that device's address (240.x), and
 * nat SUBMARINER-POSTROUTING's {@code -s 240.0.0.0/8 -o vx-submariner -j SNAT} turns it into the
 * node's CNI address. The reply comes back to the CNI address like a pod's, and conntrack hands it to
 * the node's socket. With Globalnet the gateway's egress rules, which match the pod CIDRs, then treat
 * the connection as pod traffic (seed 002: host-network applications use the ClusterGlobalEgressIP).
 */
class HostNetworkTrafficLeavesFromTheCniAddress {

    private static Flow fromNode(String cluster, String node, FlowTarget to) {
        return new Flow("host-network", new FlowSource.NodeSource(cluster, node), to, Protocol.TCP, Optional.empty());
    }

    private static Hop hop(PathTrace path, String node) {
        return path.forward().stream().filter(h -> h.node().toString().equals(node)).findFirst().orElseThrow();
    }

    private static List<Step.Snat> snats(Hop hop) {
        return hop.steps().stream().filter(s -> s instanceof Step.Snat).map(s -> (Step.Snat) s).toList();
    }

    @Test
    void aWorkersOwnConnectionIsSnatedFromVxSubmarinersAddressToItsCniAddress() throws Exception {
        FlowTrace trace = new Simulator(Planner.plan(DocumentedSteps.load("path-mtu.yaml")))
                .trace(fromNode("cluster1", "worker-1", new FlowTarget.PodTarget("cluster2", "default", "server", 80)));

        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED);
            Hop worker = hop(path, "cluster1/worker-1");
            assertThat(worker.arrive().src()).as("the source the route through vx-submariner gives")
                    .isEqualTo(Ipv4Address.parse("240.18.0.10"));
            assertThat(snats(worker)).singleElement().satisfies(snat -> {
                assertThat(snat.rule().orElseThrow().chain()).isEqualTo("SUBMARINER-POSTROUTING");
                assertThat(snat.rule().orElseThrow().rule()).isEqualTo("-s 240.0.0.0/8 -o vx-submariner -j SNAT --to-source 10.1.128.1");
                assertThat(snat.packet().src()).isEqualTo(Ipv4Address.parse("10.1.128.1"));
            });
            assertThat(path.forward().getLast().arrive().src()).isEqualTo(Ipv4Address.parse("10.1.128.1"));
            assertThat(path.reply().getLast().node().toString()).isEqualTo("cluster1/worker-1");
        });
    }

    @Test
    void aGatewaysOwnConnectionLeavesByTheCableFromItsCniAddressWithoutTheSnat() throws Exception {
        FlowTrace trace = new Simulator(Planner.plan(DocumentedSteps.load("path-mtu.yaml")))
                .trace(fromNode("cluster1", "gw-1", new FlowTarget.PodTarget("cluster2", "default", "server", 80)));

        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED);
            Hop gateway = hop(path, "cluster1/gw-1");
            assertThat(gateway.arrive().src()).as("table 100's src, ahead of table 150").isEqualTo(Ipv4Address.parse("10.1.0.1"));
            assertThat(snats(gateway)).isEmpty();
        });
    }

    @Test
    void withGlobalnetTheWorkersConnectionThenLeavesTheClusterByTheClusterEgressIp() throws Exception {
        ClusterSet set = DocumentedSteps.load("globalnet-egress.yaml");
        FlowTarget nginx = set.flow("web-to-nginx").orElseThrow().to();
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(fromNode("east", "east-worker", nginx));

        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED);
            assertThat(snats(hop(path, "east/east-worker"))).singleElement()
                    .satisfies(snat -> assertThat(snat.packet().src()).isEqualTo(Ipv4Address.parse("10.244.1.1")));
            assertThat(snats(hop(path, "east/east-gw"))).singleElement()
                    .satisfies(snat -> assertThat(snat.rule().orElseThrow().chain()).isEqualTo("SM-GN-EGRESS-CLUSTER"));
        });
    }
}
