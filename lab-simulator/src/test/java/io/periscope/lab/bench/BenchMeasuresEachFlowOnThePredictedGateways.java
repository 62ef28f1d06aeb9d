package io.periscope.lab.bench;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.failover.UpLab;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.labsimulator.SimulatorBench;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.simulator.link.VxlanFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab bench} on mag-globalnet's lab: 8 TCP streams from the client pod to nginx's global IP
 * for 3 s. Every stream moves bytes, each has a main local and a main remote gateway (the ones whose
 * connection tables counted most of its forward bytes, accounting on), the remote one is the one the
 * simulator predicts after that local one (the local one follows the client socket's random hash,
 * so only its chance is predicted), and each side's per-gateway flow counts add up to the 8 streams
 * (a stream counts once per side, at its main gateway); what the client cluster's gateways
 * sent over their WAN devices is the streams' bytes once, within the tunnel's headers:
 * {@code vxlan-tunnel} has only all-zero FDB entries, one per remote active gateway, as upstream's
 * driver writes them, but learns (seed 004, towards cluster2's two active gateways), so after the
 * flooded ARP each frame goes to the one gateway whose device has its MAC instead of a copy to each
 * (upstream's device, which learns nothing, would double the WAN's bytes here). Run twice: the
 * second run finds the first one's connection entries, deletes them, and still finds each stream
 * only where it went this time. No iperf3 is left running.
 */
class BenchMeasuresEachFlowOnThePredictedGateways {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void everyStreamMovesBytesThroughPredictedGatewaysAndTheCountersAddUp() {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load(Examples.MAG_GLOBALNET), "bench"));
        DataplanePlan gateway = lab.plan().hosts().get(HostId.node("cluster1", "gw-1")).submariner();
        assertThat(gateway.fdb().stream().filter(entry -> entry.device().equals("vxlan-tunnel")))
                .as("all-zero destinations of cluster1/gw-1's vxlan-tunnel: cluster2's active gateways").hasSize(2);
        int copies = VxlanFabric.copies(gateway, "vxlan-tunnel");
        assertThat(copies).as("copies of a frame cluster1/gw-1's learning vxlan-tunnel sends").isEqualTo(1);
        UpLab up = UpLab.of(Path.of(lab.set().name() + ".yaml"), lab.set(), lab.stateFile(), "bench");
        List<String> progress = new ArrayList<>();

        BenchReport first = new LabBench(ProcessCommandRunner.here(), new SimulatorBench()).run(up, new LabBench.Options(8, 3), progress::add);
        BenchReport second = new LabBench(ProcessCommandRunner.here(), new SimulatorBench()).run(up, new LabBench.Options(8, 3), progress::add);

        for (BenchReport report : List.of(first, second)) {
            assertThat(report.differences()).as(BenchReportText.render(report)).isEmpty();
            assertThat(report.streams()).hasSize(8).allSatisfy(stream -> {
                assertThat(stream.bytes()).as("stream %d", stream.id()).isPositive();
                assertThat(stream.measured().localBytes().values()).as("stream %d's forward bytes", stream.id()).isNotEmpty()
                        .allSatisfy(b -> assertThat(b).isPositive());
                assertThat(stream.measured().remoteBytes().values()).as("stream %d's forward bytes", stream.id()).isNotEmpty()
                        .allSatisfy(b -> assertThat(b).isPositive());
                String local = stream.measured().mainLocal().orElseThrow();
                BenchPrediction.Route route = stream.predicted().routes().stream().filter(r -> r.local().equals(Optional.of(local)))
                        .findFirst().orElseThrow(() -> new AssertionError("stream " + stream.id() + " left by " + local + ", which no route predicts"));
                assertThat(route.remote()).as("stream %d's remote gateway after %s", stream.id(), local)
                        .isEqualTo(stream.measured().mainRemote());
            });
            for (String cluster : List.of("cluster1", "cluster2")) {
                List<BenchReport.GatewayResult> side = report.gateways().stream().filter(g -> g.cluster().equals(cluster)).toList();
                assertThat(side.stream().mapToInt(g -> g.egressMeasured() + g.ingressMeasured()).sum()).as("%s's flow counts", cluster).isEqualTo(8);
            }
            long localSent = report.gateways().stream().filter(g -> g.cluster().equals("cluster1")).mapToLong(BenchReport.GatewayResult::wanSent).sum();
            long remoteReceived = report.gateways().stream().filter(g -> g.cluster().equals("cluster2"))
                    .mapToLong(BenchReport.GatewayResult::wanReceived).sum();
            assertThat((double) localSent / report.totals().bytes() / copies).as("client gateways' wan0 sent / bytes received / copies")
                    .isBetween(0.99, 1.10);
            assertThat((double) remoteReceived / report.totals().bytes() / copies).as("server gateways' wan0 received / bytes received / copies")
                    .isBetween(0.99, 1.10);
            assertThat(report.totals().bitsPerSecond()).isCloseTo(report.streams().stream().mapToDouble(BenchReport.StreamResult::bitsPerSecond).sum(),
                    org.assertj.core.api.Assertions.within(1.0));
            assertThat(report.totals().fairness()).isBetween(0.125, 1.0);
        }
        assertThat(progress).anyMatch(line -> line.startsWith("bench: deleted ") && line.contains("an earlier run left"));
        for (HostId host : List.of(HostId.pod("cluster1", "default", "client"), HostId.pod("cluster2", "default", "nginx-7d4f"))) {
            String namespace = lab.layout().requireHost(host).namespace();
            assertThat(ProcessCommandRunner.here().run(Command.of("ip", "netns", "pids", namespace)).stdout().strip()).as("processes left in %s", host).isEmpty();
        }
    }
}
