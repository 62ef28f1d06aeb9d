package io.periscope.lab.probe;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.ovn.OvnPrograms;
import io.periscope.lab.trace.HopDifference;
import io.periscope.lab.trace.TraceHop;
import io.periscope.labsimulator.SimulatorFlows;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab probe} of seed 003 on real OVN: between the interface a packet enters an OVN cluster by
 * and the one it leaves by, the hops are the logical routers OVN's own trace of the captured packet
 * crosses, compared with the simulator's logical hops like any host's. With the cluster's
 * northbound database as the plan has it the path matches hop for hop; with a row deliberately
 * wrong the probe names the router and the port where OVN took the packet elsewhere, rather than a
 * path that ends where OVN took it. The wrong row is someone else's: a policy above Submariner's
 * reroute on {@code ovn_cluster_router} that lets the traffic for the remote cluster go by the
 * router's own routes. A row of Submariner's own would not stay wrong: the lab's network plugin
 * syncer, level-driven as upstream's, puts a deleted reroute policy back within its resync. The pod's flow is written with a name: the DNS Service it asks is an OVN load balancer,
 * as OVN-Kubernetes serves Services. The first probe runs with every {@code ovn-controller} paused,
 * so that a flow whose first connection needs OVN to learn something on the way (a gateway's MAC,
 * which a loaded machine once learnt too late for the probe) fails every time rather than now and
 * then. Root and Open vSwitch / OVN; run under {@code flock /tmp/periscope-lab.lock}.
 */
class AProbeOfAnOvnLabNamesTheLogicalHopWhereOvnDisagrees {

    private static final String FLOW = "host-network-to-nginx";

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @BeforeEach
    void ovnIsInstalled() {
        Assumptions.assumeTrue(OvnPrograms.datapathUnavailable().isEmpty(), () -> OvnPrograms.datapathUnavailable().orElse(""));
    }

    @Test
    void theLogicalHopsMatchAndAWrongNorthboundRowIsReportedAtItsRouter() {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load(Examples.GLOBALNET_OVN), "ovnprobe"));
        List<Path> clusters = lab.stateFile().read(lab.layout().names().hash()).orElseThrow().ovnRunDirectories().stream().map(Path::of).toList();

        // With every ovn-controller paused, nothing can be learnt or installed while the packets fly:
        // the flows up left behind must carry each flow's first connection (see GatewayMacLearning).
        ProbeReport report = whileOvnControllersPause(clusters, () -> lab.probe(Optional.empty(), SimulatorFlows::new));

        // Both flows, the pod's too: its name is answered through the DNS Service's OVN load balancer.
        assertThat(report.flows()).allSatisfy(flow -> assertThat(flow.matchesSimulation())
                .as("%s: %s %s", flow.name(), flow.problem(), flow.firstDifference()).isTrue());
        FlowProbeResult asPlanned = report.flows().stream().filter(f -> f.name().equals(FLOW)).findFirst().orElseThrow();
        assertThat(asPlanned.problem()).isEmpty();
        assertThat(asPlanned.attempts()).isNotEmpty();
        assertThat(asPlanned.attempts().getFirst().observed().forward()).extracting(TraceHop::position).containsExactly(
                "east/east-worker out ovn-k8s-mp0",
                "east/ovn_cluster_router in rtos-east-worker out ovn_cluster_subm_lrp",
                "east/submariner_router in submariner_j_lrp out submariner_up_lrp",
                "east/east-gw in ovn-k8s-sub0 out vxlan-tunnel",
                "west/west-gw in vxlan-tunnel out ovn-k8s-sub0",
                "west/submariner_router in submariner_up_lrp out submariner_j_lrp",
                "west/ovn_cluster_router in ovn_cluster_subm_lrp out rtos-west-worker",
                "west/default/nginx-1 in eth0");

        Path east = clusters.stream().filter(d -> d.endsWith("ovn-east")).findFirst().orElseThrow();
        // Above the reroute (priority 20000), so OVN stops there and routes the packet itself.
        northbound(east, "lr-policy-add", "ovn_cluster_router", "30000", "ip4.dst == 242.1.0.0/16", "allow");
        northbound(east, "--wait=hv", "sync");

        FlowProbeResult wrongRow = lab.probe(Optional.of(FLOW), SimulatorFlows::new).flows().getFirst();

        assertThat(wrongRow.problem()).isEmpty();
        assertThat(wrongRow.matchesSimulation()).isFalse();
        HopDifference difference = wrongRow.firstDifference().orElseThrow();
        assertThat(difference.node()).isEqualTo("east/ovn_cluster_router");
        assertThat(difference.field()).isEqualTo("out");
        assertThat(difference.simulated()).isEqualTo("ovn_cluster_subm_lrp");
        // Past the reroute, ovn_cluster_router's source route sends the node's traffic to its gateway router.
        assertThat(difference.observed()).isEqualTo("rtoj-ovn_cluster_router");
    }

    /** Runs {@code work} with every ovn-controller of {@code clusters} stopped (SIGSTOP), and lets them go on after it. */
    private static <T> T whileOvnControllersPause(List<Path> clusters, Supplier<T> work) {
        List<String> pids = new ArrayList<>();
        for (Path cluster : clusters) {
            try (Stream<Path> nodes = Files.list(cluster)) {
                for (Path pidFile : nodes.map(node -> node.resolve("ovn-controller.pid")).filter(Files::exists).sorted().toList()) {
                    pids.add(Files.readString(pidFile).strip());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(pids).as("ovn-controllers of %s", clusters).hasSize(4);
        try {
            signal("-STOP", pids);
            return work.get();
        } finally {
            signal("-CONT", pids);
        }
    }

    private static void signal(String signal, List<String> pids) {
        List<String> argv = new ArrayList<>(List.of("kill", signal));
        argv.addAll(pids);
        CommandResult result = ProcessCommandRunner.here().execute(new Command(argv, ""));
        assertThat(result.succeeded()).as("kill %s %s: %s", signal, pids, result.stderr()).isTrue();
    }

    private static void northbound(Path cluster, String... arguments) {
        List<String> argv = new ArrayList<>(List.of("ovn-nbctl", "--db=unix:" + cluster.resolve("central/nb.sock")));
        argv.addAll(List.of(arguments));
        CommandResult result = ProcessCommandRunner.here().execute(new Command(argv, ""));
        assertThat(result.succeeded()).as("ovn-nbctl %s: %s", String.join(" ", arguments), result.stderr()).isTrue();
    }
}
