package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * UDP to a service, ICMP, TCP from a node's own socket, TCP inside a cluster, and TCP to an address
 * nobody routes: real packets agree with the simulator on every one, including on how the last
 * one fails (the node answers with "net unreachable": {@code no-route}).
 */
class ProtocolsAndSourcesMatchTheSimulator {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private RunningLab lab;

    @BeforeEach
    void up() throws TopologyException, URISyntaxException {
        Path file = Path.of(ProtocolsAndSourcesMatchTheSimulator.class.getResource("protocols.yaml").toURI());
        lab = labs.up(RunningLab.forTest(TopologyLoader.load(file), "protocols"));
    }

    @Test
    void everyFlowTakesTheSimulatedPathAndEndsAsSimulated() {
        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        Map<String, FlowProbeResult> flows = report.flows().stream().collect(Collectors.toMap(FlowProbeResult::name, f -> f));
        assertThat(flows).containsOnlyKeys("udp-to-remote-service", "icmp-to-remote-pod", "tcp-from-a-node", "tcp-inside-the-cluster",
                "tcp-to-nowhere");
        flows.values().forEach(flow -> assertThat(flow.matchesSimulation()).as("%s: %s %s", flow.name(), flow.problem(),
                flow.firstDifference()).isTrue());
        assertThat(flows.get("tcp-to-nowhere").attempts()).allSatisfy(a -> assertThat(a.observed().disposition()).isEqualTo("no-route"));
        assertThat(flows.get("udp-to-remote-service").attempts()).allSatisfy(a -> {
            assertThat(a.observed().disposition()).isEqualTo("delivered");
            assertThat(a.observed().reply()).isNotEmpty();
        });
        assertThat(flows.get("icmp-to-remote-pod").attempts()).allSatisfy(a -> assertThat(a.observed().disposition()).isEqualTo("delivered"));
    }
}
