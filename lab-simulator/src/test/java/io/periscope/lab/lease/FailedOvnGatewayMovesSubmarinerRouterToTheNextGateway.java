package io.periscope.lab.lease;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailure;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.ovn.OvnPrograms;
import io.periscope.lab.ovn.PlannedOvnCluster;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;
import io.periscope.lab.trace.TraceHop;
import io.periscope.labsimulator.SimulatorFlows;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab fail} of the active gateway of an OVN-Kubernetes cluster with a standby (seed 003's
 * design, {@code submariner_router}): the standby takes the lease, the supervisor's network plugin
 * syncer rebinds {@code submariner_router} to its chassis in the running northbound database,
 * {@code ovn-northd} and the standby's {@code ovn-controller} move the router's ports there, and a
 * pod's real packets to the remote cluster leave through the new gateway's {@code ovn-k8s-sub0},
 * hop for hop as the simulation of the lab as it is now. Healed, the old gateway is a standby (no
 * preemption, as upstream); failing the new one moves everything back. Root and Open vSwitch / OVN;
 * run under {@code flock /tmp/periscope-lab.lock}.
 */
class FailedOvnGatewayMovesSubmarinerRouterToTheNextGateway {

    static final String FIRST = "east/east-gw";
    static final String SECOND = "east/east-gw2";
    static final String FLOW = "ovn-pod-to-kube-proxy-service";

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @BeforeEach
    void ovnIsInstalled() {
        Assumptions.assumeTrue(OvnPrograms.datapathUnavailable().isEmpty(), () -> OvnPrograms.datapathUnavailable().orElse(""));
    }

    @Test
    void theChassisTheSyncerAndThePacketsFollowTheLeaseAwayAndBack() throws Exception {
        RunningLab lab = labs.up(RunningLab.forTest(LeaseTopologies.ovnSingleActive(), "ovnlease"));
        UpLab up = UpLab.of(Path.of(lab.set().name() + ".yaml"), lab.set(), lab.stateFile(), "test");
        SupervisorFiles files = up.supervisorFiles();
        String northbound = PlannedOvnCluster.northbound(files.directory(), "east");
        String southbound = northbound.replace("nb.sock", "sb.sock");
        LabFailure failure = new LabFailure(ProcessCommandRunner.here());

        SupervisorStatusWait.until(files, s -> s.nodes().get(FIRST).leading() && syncedTo(s, "east-gw")
                && SupervisorStatusWait.everyRunningAgentProgrammed("east", "east-gw").test(s), "east-gw leads, the syncer bound east-gw and every agent programmed it");
        assertThat(chassisOption(northbound)).isEqualTo("east-gw");
        assertCrosses(lab, "east/east-gw");

        failure.fail(up, FIRST, FailureMode.CRASH, line -> { });
        SupervisorStatusWait.until(files, s -> s.nodes().get(SECOND).leading() && syncedTo(s, "east-gw2")
                && SupervisorStatusWait.everyRunningAgentProgrammed("east", "east-gw2").test(s), "east-gw2 takes the lease, the syncer binds it and every agent programs it");

        assertThat(chassisOption(northbound)).as("options:chassis of submariner_router in the running northbound database").isEqualTo("east-gw2");
        awaitBoundTo(southbound, "east-gw2");
        assertThat(Files.readString(files.log())).contains("gateway lease changed hands: east -> east-gw2")
                .contains("east: network plugin syncer: ").contains("submariner_router on chassis east-gw2 (was east-gw)");
        assertCrosses(lab, "east/east-gw2");

        failure.heal(up, FIRST, line -> { });
        assertThat(LabLeases.holders(files.directory(), lab.set())).as("healed, east-gw comes back as the standby").containsEntry("east", "east-gw2");
        assertThat(chassisOption(northbound)).isEqualTo("east-gw2");

        failure.fail(up, SECOND, FailureMode.CRASH, line -> { });
        SupervisorStatusWait.until(files, s -> s.nodes().get(FIRST).leading() && syncedTo(s, "east-gw")
                && SupervisorStatusWait.everyRunningAgentProgrammed("east", "east-gw").test(s), "east-gw takes the lease back, the syncer binds it and every agent programs it");
        assertThat(chassisOption(northbound)).isEqualTo("east-gw");
        awaitBoundTo(southbound, "east-gw");
        assertCrosses(lab, "east/east-gw");
        failure.heal(up, SECOND, line -> { });
    }

    /** {@code lab probe} of the flow: real packets where the simulation of the lab as it is now puts them, through {@code gateway}. */
    private static void assertCrosses(RunningLab lab, String gateway) {
        ProbeReport report = lab.probe(Optional.of(FLOW), SimulatorFlows::new);
        FlowProbeResult flow = report.flows().getFirst();
        assertThat(flow.matchesSimulation()).as(() -> flow.name() + ": " + flow.problem() + " " + flow.firstDifference() + "\n" + diagnose(lab)).isTrue();
        assertThat(flow.attempts()).isNotEmpty().allSatisfy(a -> {
            assertThat(a.outcome().disposition()).isEqualTo("delivered");
            assertThat(a.observed().forward()).extracting(TraceHop::position)
                    .contains("east/submariner_router in submariner_j_lrp out submariner_up_lrp", gateway + " in ovn-k8s-sub0 out vxlan-tunnel");
        });
    }

    /** What a packet lost in OVN leaves to read: the bindings OVN learned and the gateways' ovn-k8s-sub0. */
    private static String diagnose(RunningLab lab) {
        Path directory = lab.stateFile().directoryFor(lab.layout().names().hash()).resolve("ovn-east");
        StringBuilder text = new StringBuilder();
        List<Command> commands = new ArrayList<>(List.of(
                Command.of("ovn-sbctl", "--db=unix:" + directory.resolve("central/sb.sock"), "list", "MAC_Binding"),
                Command.of("ovn-sbctl", "--db=unix:" + directory.resolve("central/sb.sock"), "find", "Port_Binding", "datapath!=[]", "type=l3gateway")));
        for (String node : List.of("east-gw", "east-gw2")) {
            String namespace = lab.layout().requireHost(io.periscope.plan.HostId.node("east", node)).namespace();
            commands.add(Command.of("ip", "-s", "link", "show", "dev", "ovn-k8s-sub0").inNamespace(namespace));
            commands.add(Command.of("ip", "neigh", "show", "dev", "ovn-k8s-sub0").inNamespace(namespace));
            commands.add(Command.of("ip", "route", "show", "table", "all").inNamespace(namespace));
            commands.add(Command.of("ovs-appctl", "-t", directory.resolve(node).resolve("ovs-vswitchd.ctl").toString(), "dpctl/dump-flows"));
        }
        for (Command command : commands) {
            io.periscope.dataplane.command.CommandResult result = ProcessCommandRunner.here().execute(command);
            text.append("$ ").append(command).append('\n').append(result.stdout()).append(result.stderr()).append('\n');
        }
        return text.toString();
    }

    private static boolean syncedTo(SupervisorStatus status, String chassis) {
        SupervisorStatus.NorthboundStatus syncer = status.northbound().get("east");
        return syncer != null && syncer.chassis().equals(chassis) && syncer.lastError().isEmpty();
    }

    private static String chassisOption(String northbound) {
        return run("ovn-nbctl", "--db=" + northbound, "get", "Logical_Router", "submariner_router", "options:chassis").replace("\"", "");
    }

    /** What OVN itself did with the option: the chassis its southbound database binds the router's gateway port to. */
    private static void awaitBoundTo(String southbound, String chassis) throws InterruptedException {
        String bound = "";
        for (int wait = 0; wait < 100; wait++) {
            String uuid = run("ovn-sbctl", "--db=" + southbound, "--bare", "--columns=chassis", "find", "Port_Binding", "logical_port=submariner_up_lrp");
            bound = uuid.isEmpty() ? "" : run("ovn-sbctl", "--db=" + southbound, "--bare", "--columns=name", "list", "Chassis", uuid);
            if (bound.equals(chassis)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("submariner_up_lrp is bound to chassis '" + bound + "' in the southbound database, not " + chassis);
    }

    private static String run(String... argv) {
        return ProcessCommandRunner.here().run(Command.of(argv)).stdout().strip();
    }
}
