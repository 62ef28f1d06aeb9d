package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped examples, for real (mag-globalnet-egress with per-gateway egress ownership, so its
 * GlobalEgressIP and headless-pod flows too): {@code up} builds every namespace and converges, every flow's
 * packets are delivered and take only paths the simulator shows, field by field, and with several
 * active gateways every gateway pair carries a connection; {@code down} leaves no namespace behind.
 */
class ExamplesComeUpCarryEveryFlowAndGoDown {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @ParameterizedTest
    @ValueSource(strings = {Examples.MAG_GLOBALNET, Examples.GLOBALNET_EGRESS, Examples.MAG_GLOBALNET_EGRESS, Examples.MAG_3_GATEWAYS})
    void upProbeDown(String example) {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load(example), example.replace(".yaml", "")));

        assertThat(lab.layout().namespaces()).allMatch(NetworkNamespaces::exists);
        assertThat(lab.namespacesOnTheMachine()).containsExactlyInAnyOrderElementsOf(lab.layout().namespaces());
        try (ReconcilingAgents agents = new ReconcilingAgents()) {
            for (HostNamespace node : lab.layout().nodes()) {
                assertThat(agents.submariner(node).pendingChanges()).as("what %s still lacks", node.host()).isEmpty();
            }
        }

        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        assertThat(report.flows()).hasSameSizeAs(lab.set().flows());
        for (FlowProbeResult flow : report.flows()) {
            assertThat(flow.problem()).as(flow.name()).isEmpty();
            assertThat(flow.attempts()).as(flow.name()).isNotEmpty()
                    .allSatisfy(a -> assertThat(a.outcome().disposition()).as("%s from port %d: %s", flow.name(), a.outcome().sourcePort(),
                            a.outcome().problem()).isEqualTo("delivered"));
            assertThat(flow.attempts()).as(flow.name()).allSatisfy(a -> assertThat(a.match().matches())
                    .as("%s from port %d: %s", flow.name(), a.outcome().sourcePort(), a.match().firstDifference()).isTrue());
            // Every gateway pair (mag-globalnet: 2 local x 2 remote) carried some connection.
            assertThat(flow.pathsSeen()).as(flow.name()).hasSize(flow.simulatedPaths());
        }
        assertThat(report.matchesSimulation()).isTrue();
        // Progress per flow, and captures only where the flow can go: not in the pods it never reaches.
        int flows = report.flows().size();
        for (int i = 0; i < flows; i++) {
            String name = report.flows().get(i).name();
            String counter = "flow " + (i + 1) + "/" + flows + " " + name + ": ";
            assertThat(lab.progress()).anyMatch(line -> line.startsWith(counter + "capturing on ") && line.contains(" interfaces of "))
                    .anyMatch(line -> line.startsWith(counter) && line.contains(" probes, "));
        }
        assertThat(lab.progress()).filteredOn(line -> line.contains(": capturing on "))
                .allMatch(line -> watchedHosts(line) >= lab.layout().nodes().size());
        if (lab.layout().hosts().size() > lab.layout().nodes().size() + 2) {
            // more pods than one flow's two ends: some flow leaves some pod alone
            assertThat(lab.progress()).filteredOn(line -> line.contains(": capturing on "))
                    .anyMatch(line -> watchedHosts(line) < lab.layout().hosts().size());
        }

        List<String> removed = lab.down();

        assertThat(removed).containsExactlyInAnyOrderElementsOf(lab.layout().namespaces());
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
        assertThat(lab.stateFile().read(lab.layout().names().hash())).isEmpty();
        assertThat(lab.down()).as("down again finds nothing to do").isEmpty();
    }

    private static int watchedHosts(String progressLine) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("interfaces of (\\d+) hosts").matcher(progressLine);
        assertThat(matcher.find()).as(progressLine).isTrue();
        return Integer.parseInt(matcher.group(1));
    }
}
