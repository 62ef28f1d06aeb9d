package io.periscope.lab.probe;

import io.periscope.lab.Examples;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.NodeFailure;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab probe} while {@code lab fail} has nodes failed compares the real packets with the simulation that has
 * them failed (as {@code trace --fail} plans it), and says so; a node whose agents alone stopped still forwards.
 */
class AProbeAfterLabFailComparesWithTheNodesFailed {

    private final ClusterSet set = Examples.load(Examples.MAG_3_GATEWAYS);
    private final ClusterSetPlan allUp = Planner.plan(set);
    private final List<String> progress = new ArrayList<>();

    private LabState failed(String node, String mode) {
        return new LabState(set.name(), "/x/mag-3-gateways.yaml", "aece28", List.of(), LabState.CONVERGED)
                .withFailure(new NodeFailure(node, mode, "psc-aece28-" + node.replace('/', '-'), List.of(), "", true));
    }

    @Test
    void aCrashedGatewayIsLeftOutOfTheSimulation() {
        ClusterSetPlan simulated = LabProbe.simulated(set, Map.of(), allUp, failed("cluster1/gw-2", "crash"), progress::add);

        assertThat(simulated.hosts().keySet()).noneMatch(h -> h.toString().equals("cluster1/gw-2"));
        assertThat(allUp.hosts().keySet()).anyMatch(h -> h.toString().equals("cluster1/gw-2"));
        assertThat(progress).singleElement().asString().contains("cluster1/gw-2 (crash)").contains("as 'trace --fail' plans it");
    }

    @Test
    void withNothingFailedItIsTheAllUpSimulationSaidNothingOf() {
        LabState up = new LabState(set.name(), "/x/mag-3-gateways.yaml", "aece28", List.of(), LabState.CONVERGED);

        assertThat(LabProbe.simulated(set, Map.of(), allUp, up, progress::add)).isSameAs(allUp);
        assertThat(progress).isEmpty();
    }

    @Test
    void aNodeWhoseAgentsAloneStoppedStaysInTheSimulation() {
        assertThat(LabProbe.simulated(set, Map.of(), allUp, failed("cluster1/gw-2", "agent-stop"), progress::add)).isSameAs(allUp);
        assertThat(progress).singleElement().asString().contains("the all-up one");
    }
}
