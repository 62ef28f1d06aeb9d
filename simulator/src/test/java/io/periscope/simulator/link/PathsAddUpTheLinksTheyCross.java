package io.periscope.simulator.link;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.LinkFigures;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * examples/mag-vanilla.yaml (two clusters of two active gateways each, the client on worker-1, nginx
 * on worker-2) with every node's uplink and the cable shaped: each path adds up what it crosses, out
 * of worker-1, into and out of its local gateway, the cable, into and out of its remote gateway,
 * into worker-2, and the slowest of them is its bottleneck.
 */
class PathsAddUpTheLinksTheyCross {

    /** One-way delay of each node's uplink, in ms. */
    private static final Map<String, Integer> DELAY = Map.of("worker-1", 1, "gw-1", 2, "gw-2", 3, "gw-3", 4, "gw-4", 5, "worker-2", 6);

    static ClusterSet shaped(String extraCable) throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "mag-vanilla.yaml"))
                .replace("cniIP: 10.1.0.1, gateway: true}", "cniIP: 10.1.0.1, gateway: true, uplink: {rate: 100mbit, delay: 2ms, jitter: 1ms}}")
                .replace("cniIP: 10.1.64.1, gateway: true}", "cniIP: 10.1.64.1, gateway: true, uplink: {rate: 200mbit, delay: 3ms}}")
                .replace("cniIP: 10.1.128.1}", "cniIP: 10.1.128.1, uplink: {delay: 1ms, loss: 1%}}")
                .replace("cniIP: 10.2.0.1, gateway: true}", "cniIP: 10.2.0.1, gateway: true, uplink: {delay: 4ms}}")
                .replace("cniIP: 10.2.192.0, gateway: true}", "cniIP: 10.2.192.0, gateway: true, uplink: {delay: 5ms}}")
                .replace("cniIP: 10.2.128.1}", "cniIP: 10.2.128.1, uplink: {rate: 1gbit, delay: 6ms}}")
                .replace("flows:", extraCable + "flows:");
        return TopologyLoader.parse(yaml, "mag-vanilla-shaped.yaml");
    }

    private static final String CABLE = """
            cables:
              - between: [cluster1, cluster2]
                rate: 500mbit
                delay: 20ms
                jitter: 2ms
                loss: 0.5%
            """;

    private static String gateway(PathTrace path, String cluster) {
        return path.forward().stream().map(Hop::node).filter(h -> h.cluster().equals(cluster) && h.name().startsWith("gw-"))
                .findFirst().orElseThrow().name();
    }

    @Test
    void eachPathAddsUpTheUplinksAndTheCableItCrosses() throws Exception {
        ClusterSet set = shaped(CABLE);
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(set.flow("client-to-nginx").orElseThrow());

        assertThat(trace.paths()).hasSize(8);
        for (PathTrace path : trace.paths()) {
            String local = gateway(path, "cluster1");
            String remote = gateway(path, "cluster2");
            LinkFigures forward = path.links().orElseThrow().forward();
            assertThat(forward.crossed()).extracting(LinkFigures.Crossing::link).containsExactly(
                    "cluster1/worker-1 uplink", "cluster1/" + local + " uplink", "cluster1/" + local + " uplink", "cable cluster1-cluster2",
                    "cluster2/" + remote + " uplink", "cluster2/" + remote + " uplink", "cluster2/worker-2 uplink");
            int delay = DELAY.get("worker-1") + 2 * DELAY.get(local) + 20 + 2 * DELAY.get(remote) + DELAY.get("worker-2");
            assertThat(forward.delay()).isEqualTo(Duration.ofMillis(delay));
            // gw-1's 1 ms of jitter counts in and out, the cable's 2 ms once.
            assertThat(forward.jitter()).isEqualTo(Duration.ofMillis(local.equals("gw-1") ? 4 : 2));
            // The local gateway's uplink is slower than the cable (500mbit) and worker-2's (1gbit).
            assertThat(forward.bottleneck().orElseThrow().bitsPerSecond()).isEqualTo(local.equals("gw-1") ? 100_000_000L : 200_000_000L);
            assertThat(forward.bottleneck().orElseThrow().link()).isEqualTo("cluster1/" + local + " uplink");
            assertThat(forward.lossProbability()).isCloseTo(1 - 0.99 * 0.995, within(1e-12));
            assertThat(path.links().orElseThrow().roundTrip()).isPresent();
        }
    }

    @Test
    void theTextTraceSaysItOnOneLinePerPathAndTheJsonCarriesTheFigures() throws Exception {
        ClusterSet set = shaped(CABLE);
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(set.flow("client-to-nginx").orElseThrow());
        PathTrace first = trace.paths().getFirst();
        String local = gateway(first, "cluster1");
        String remote = gateway(first, "cluster2");
        int delay = 1 + 2 * DELAY.get(local) + 20 + 2 * DELAY.get(remote) + 6;

        String text = TraceText.render(List.of(trace));

        assertThat(text).contains("path 1 of 8: delivered\n  links: one-way " + delay + "ms (± " + (local.equals("gw-1") ? 4 : 2)
                + "ms), bottleneck " + (local.equals("gw-1") ? "100mbit" : "200mbit") + " at cluster1/" + local + " uplink, loss 1.495%; reply one-way ");
        assertThat(text.lines().filter(l -> l.startsWith("  links: "))).hasSize(8);
        var json = TraceJson.flow(trace).get("paths").get(0).get("links");
        assertThat(json.get("forward").get("delayMs").asDouble()).isEqualTo(delay);
        assertThat(json.get("forward").get("bottleneck").get("link").asText()).isEqualTo("cluster1/" + local + " uplink");
        assertThat(json.get("forward").get("crossed")).hasSize(7);
        assertThat(json.get("roundTripMs").asDouble()).isGreaterThan(delay);
    }

    @Test
    void aFileThatShapesNothingTracesAsBefore() throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", "mag-vanilla.yaml"));
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(set.flow("client-to-nginx").orElseThrow());

        assertThat(trace.paths()).allSatisfy(p -> assertThat(p.links()).isEmpty());
        assertThat(TraceText.render(List.of(trace))).doesNotContain("links:");
        assertThat(TraceJson.flow(trace).toString()).doesNotContain("\"links\"");
    }

    /** A pod's flow to a pod of its own node crosses no uplink: nothing shaped on its way, nothing to tell. */
    @Test
    void aPathThatCrossesNoShapedLinkGetsNoFigures() throws Exception {
        ClusterSet set = shaped("").withFlows(List.of());
        Simulator simulator = new Simulator(Planner.plan(set));
        var flow = new io.periscope.simulator.ResolvedFlow(io.periscope.plan.HostId.pod("cluster1", "default", "client"),
                java.util.Optional.empty(), io.periscope.model.net.Ipv4Address.parse("10.1.128.1"), 22,
                io.periscope.model.topology.Protocol.TCP, 40000);

        List<PathTrace> paths = simulator.trace(flow);

        assertThat(paths).isNotEmpty().allSatisfy(p -> assertThat(p.links()).isEmpty());
    }
}
