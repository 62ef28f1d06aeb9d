package io.periscope.lab.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.planner.Planner;
import io.periscope.simulator.trace.FlowTrace;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code lab probe} of a flow to a service nobody exports: a real client's DNS lookup fails and it
 * sends nothing, which is the simulator's answer (unreachable). The probe reports that answer, agreeing
 * with the simulation, instead of "not probed".
 */
class FlowsToNamesNobodyAnswersAgreeWithTheSimulatorWithoutSending {

    @Test
    void theSimulationSaysTheNameIsUnansweredAndTheResultAgreesWithIt() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "mag-vanilla.yaml")) + """
                  - name: client-to-nobody
                    from: cluster1/default/client
                    to: nobody.default.svc.clusterset.local:80
                    protocol: tcp
                    expect: unreachable
                """;
        ClusterSet set = TopologyLoader.parse(yaml, "unanswered.yaml");
        Flow flow = set.flow("client-to-nobody").orElseThrow();

        FlowSimulation.UnansweredName unanswered = catchThrowableOfType(FlowSimulation.UnansweredName.class,
                () -> new SimulatorFlows(Planner.plan(set)).resolve(flow));
        assertThat(unanswered).isNotNull();
        assertThat(unanswered.getMessage()).contains("no cluster exports service default/nobody").doesNotContain("flow '");

        FlowProbeResult result = FlowProbeResult.unanswered(flow.name(), flow.from().toString(), flow.to().toString(), unanswered.getMessage());
        assertThat(result.matchesSimulation()).isTrue();
        assertThat(new ProbeReport(set.name(), List.of(result)).matchesSimulation()).isTrue();
        assertThat(LabProbe.summary(result)).startsWith("unreachable, as simulated").doesNotContain("not probed");
        JsonNode json = new ObjectMapper().readTree(ProbeReportJson.render(new ProbeReport(set.name(), List.of(result))));
        JsonNode node = json.get("flows").get(0);
        assertThat(node.get("disposition").asText()).isEqualTo("unreachable");
        assertThat(node.get("matchesSimulation").asBoolean()).isTrue();
        assertThat(node.has("problem")).isFalse();
    }

    @Test
    void theResultResolvesToWhatTheSimulatorsTraceWritesForAnUnansweredName() {
        FlowProbeResult result = FlowProbeResult.unanswered("f", "cluster1/default/client", "nobody.default.svc.clusterset.local:80", "why");

        assertThat(result.resolved()).isEqualTo(FlowTrace.NO_ADDRESS);
    }
}
