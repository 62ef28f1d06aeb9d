package io.periscope.lab;

import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.probe.ProbeReportText;
import io.periscope.lab.state.LabState;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's two policy examples in one lab: a client/server connectivity policy, vxlan between the
 * on-premise clusters and WireGuard (wireguard-go in each gateway's namespace) to the cloud.
 */
class ClientServerOverVxlanAndWireguardMatchesTheSimulator {

    static final Path TOPOLOGY = Path.of("src", "test", "resources", "topologies", "client-server-vxlan-wireguard.yaml");

    @TempDir
    Path state;

    private RunningLab lab;

    @BeforeEach
    void needsRoot() {
        RunningLab.assumeRoot();
    }

    @AfterEach
    void removeTheLab() {
        if (lab != null) {
            lab.close();
        }
    }

    static ClusterSet topology() {
        try {
            return TopologyLoader.load(TOPOLOGY);
        } catch (TopologyException e) {
            throw new IllegalStateException("the test topology does not load: " + e.getMessage(), e);
        }
    }

    @Test
    void allowedFlowsAreDeliveredAsSimulatedAndForbiddenOnesGetNothingThrough() {
        lab = RunningLab.up(RunningLab.forTest(topology(), "cswg"), state);
        LabState up = lab.stateFile().read(lab.layout().names().hash()).orElseThrow();
        System.err.println(String.join("\n", lab.progress()));
        System.err.println(up);

        ProbeReport report = lab.probe(Optional.empty());
        System.err.println(ProbeReportText.render(report));
        for (FlowProbeResult flow : report.flows()) {
            System.err.println(flow.name() + " " + flow.matchesSimulation());
        }
        lab.down();
    }
}
