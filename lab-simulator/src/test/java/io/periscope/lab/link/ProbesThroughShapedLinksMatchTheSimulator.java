package io.periscope.lab.link;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.LinkProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe rebuilds hops from what its captures see, not from the nodes' chains: with every uplink
 * and the cable of {@code mag-globalnet.yaml} shaped and lossy (qdiscs on every node device and switch
 * port, link chains on every node), every flow is still delivered on paths the simulator shows, every
 * gateway pair taken.
 */
class ProbesThroughShapedLinksMatchTheSimulator {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void magGlobalnetWithEveryLinkShaped() {
        ClusterSet example = Examples.load(Examples.MAG_GLOBALNET);
        // A loss of one in a million puts the link chains on every node and gateway; a probe's few hundred
        // packets lose one about once in ten thousand runs.
        LinkProperties uplink = new LinkProperties(OptionalLong.of(200_000_000), Optional.empty(), Optional.empty(), OptionalDouble.of(0.0001),
                OptionalInt.of(500));
        LinkProperties cable = new LinkProperties(OptionalLong.of(100_000_000), Optional.empty(), Optional.empty(), OptionalDouble.of(0.0001),
                OptionalInt.empty());
        ClusterSet shaped = example.withClusters(example.clusters().stream().map(c -> c.withNodes(c.nodes().stream()
                        .map(n -> n.withLink(n.link().withUplink(uplink))).toList())).toList());
        shaped = new ClusterSet(shaped.name(), shaped.globalnet(), shaped.defaultCableDriver(), shaped.clusters(), shaped.connectivityPolicies(),
                shaped.connectionPolicies(), shaped.flows(), List.of(new CableLink("cluster1", "cluster2", cable)));
        RunningLab lab = labs.up(RunningLab.forTest(shaped, "shapedprobe"));
        assertThat(lab.progress()).anyMatch(line -> line.startsWith("links: 20 devices shaped in 9 namespaces (4 cable classes); loss on 6 uplinks and 1 cable; delay on none"));

        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        assertThat(report.flows()).isNotEmpty().allSatisfy(flow -> {
            assertThat(flow.problem()).as(flow.name()).isEmpty();
            assertThat(flow.pathsSeen()).as(flow.name()).hasSize(flow.simulatedPaths());
        });
        assertThat(report.matchesSimulation()).isTrue();
    }
}
