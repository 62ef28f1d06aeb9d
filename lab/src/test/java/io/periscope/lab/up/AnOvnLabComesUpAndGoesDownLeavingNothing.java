package io.periscope.lab.up;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.Examples;
import io.periscope.lab.FailingSubmarinerAgents;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.ovn.OvnPrograms;
import io.periscope.lab.state.LabState;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code lab up} of seed 003 ({@code examples/globalnet-ovn.yaml}) builds both OVN-Kubernetes
 * clusters on OVN's real datapath, and {@code lab down}, or the rollback of an {@code up} that fails
 * once the daemons run, leaves no namespace, daemon or run directory (where the daemons' unix
 * sockets live). Root and Open vSwitch / OVN; run under {@code flock /tmp/periscope-lab.lock}.
 */
class AnOvnLabComesUpAndGoesDownLeavingNothing {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @BeforeEach
    void ovnIsInstalled() {
        Assumptions.assumeTrue(OvnPrograms.datapathUnavailable().isEmpty(), () -> OvnPrograms.datapathUnavailable().orElse(""));
    }

    @Test
    void upRunsEveryClustersDaemonsAndCarriesPodsPacketsAndDownLeavesNothing() {
        ClusterSet set = RunningLab.forTest(Examples.load(Examples.GLOBALNET_OVN), "ovn");
        RunningLab lab = labs.up(set);
        LabState state = lab.stateFile().read(lab.layout().names().hash()).orElseThrow();
        List<Path> runDirectories = state.ovnRunDirectories().stream().map(Path::of).toList();

        assertThat(lab.progress()).anyMatch(l -> l.startsWith("ovn east: ")).anyMatch(l -> l.startsWith("ovn west: "));
        assertThat(runDirectories).hasSize(2);
        // Per cluster: nb, sb and ovn-northd, and on each of two nodes ovsdb-server, ovs-vswitchd, ovn-controller.
        for (Path directory : runDirectories) {
            assertThat(daemonsUnder(directory)).hasSize(9);
        }
        // The pod's packets to its own node's management port cross OVN's logical switch; to the
        // other node's they cross ovn_cluster_router and a Geneve tunnel between the chassis.
        String web = lab.layout().requireHost(HostId.pod("east", "default", "web")).namespace();
        String worker = lab.layout().requireHost(HostId.node("east", "east-worker")).namespace();
        assertThat(ping(web, "10.244.1.1").exitCode()).as(() -> diagnose(lab, web, worker, runDirectories)).isZero();
        assertThat(ping(web, "10.244.0.1").exitCode()).as(() -> diagnose(lab, web, worker, runDirectories)).isZero();
        HostHasOvnPorts.check(lab, "east", "east-gw");
        // Each cluster's submariner_router knows its gateway's MAC before up returns: the first
        // packet it sends there is not held while OVN asks by ARP.
        assertThat(lab.progress()).anyMatch(l -> l.startsWith("ovn gateway macs: east: submariner_router learnt 169.254.254.10 at 0a:58:66:22:33:44"));
        for (Path directory : runDirectories) {
            assertThat(ProcessCommandRunner.here().run(Command.of("ovn-sbctl", "--db=unix:" + directory.resolve("central/sb.sock"),
                    "--bare", "--columns=ip,mac", "find", "MAC_Binding", "logical_port=submariner_up_lrp")).stdout())
                    .as(directory.toString()).contains("169.254.254.10").contains("0a:58:66:22:33:44");
        }
        for (String node : List.of("east-gw", "east-worker")) {
            AgentsBuiltTheBridge.check(lab, runDirectories.getFirst(), "east", node);
        }

        lab.down();

        assertThat(lab.layout().namespaces()).noneMatch(NetworkNamespaces::exists);
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
        assertThat(runDirectories).noneMatch(Files::exists);
        assertThat(processesNaming(runDirectories)).isEmpty();
    }

    @Test
    void anUpThatFailsAfterOvnStartedLeavesNoDaemonNamespaceOrRunDirectory() {
        ClusterSet set = RunningLab.forTest(Examples.load(Examples.GLOBALNET_OVN), "ovnfail");
        RunningLab lab = labs.planned(set);
        List<String> progress = new ArrayList<>();
        Path runDirectories = lab.stateFile().directoryFor(lab.layout().names().hash());

        assertThatThrownBy(() -> new LabUp(ProcessCommandRunner.here(), lab.stateFile(), new FailingSubmarinerAgents())
                .run(Path.of("ovnfail.yaml"), set, progress::add))
                .hasMessageContaining("iptables-restore refused line 3");

        assertThat(progress).anyMatch(l -> l.startsWith("ovn east: ")).anyMatch(l -> l.startsWith("lab up failed: removing what it created"));
        assertThat(lab.layout().namespaces()).noneMatch(NetworkNamespaces::exists);
        assertThat(runDirectories.resolve("ovn-east")).doesNotExist();
        assertThat(runDirectories.resolve("ovn-west")).doesNotExist();
        assertThat(processesNaming(List.of(runDirectories))).isEmpty();
        assertThat(lab.stateFile().read(lab.layout().names().hash())).isEmpty();
    }

    /** The node's OVN-made ports carry the plan's addresses: ovn-k8s-mp0 its CNI address, ovn-k8s-sub0 Submariner's. */
    private static final class HostHasOvnPorts {
        static void check(RunningLab lab, String cluster, String node) {
            String namespace = lab.layout().requireHost(HostId.node(cluster, node)).namespace();
            assertThat(lab.inNamespace(namespace, "ip", "-4", "-o", "addr", "show", "dev", "ovn-k8s-mp0")).contains("10.244.0.1/32");
            assertThat(lab.inNamespace(namespace, "ip", "-4", "-o", "addr", "show", "dev", "ovn-k8s-sub0")).contains("169.254.254.10/29");
        }
    }

    /**
     * br-submariner is the agents' (the lab builds no bridge of Submariner's): on every node, with
     * ovn-k8s-sub0 at the plan's MAC, mapped to submariner_gateway next to the lab's own mapping-less
     * bridges, and the agents' second look finds nothing to change.
     */
    private static final class AgentsBuiltTheBridge {
        static void check(RunningLab lab, Path clusterDirectory, String cluster, String node) {
            HostPlanOf host = new HostPlanOf(lab, cluster, node);
            String db = "--db=unix:" + clusterDirectory.resolve(node).resolve("db.sock");
            assertThat(lab.inNamespace(host.namespace(), "ovs-vsctl", db, "list-ports", "br-submariner")).contains("ovn-k8s-sub0");
            assertThat(lab.inNamespace(host.namespace(), "ovs-vsctl", db, "get", "open_vswitch", ".", "external_ids:ovn-bridge-mappings"))
                    .contains("submariner_gateway:br-submariner");
            assertThat(lab.inNamespace(host.namespace(), "ovs-vsctl", db, "get", "bridge", "br-submariner", "datapath_type")).contains("netdev");
            String mac = host.plan().interfaces().stream().filter(i -> i.name().equals("ovn-k8s-sub0")).findFirst().orElseThrow().mac().toString();
            assertThat(lab.inNamespace(host.namespace(), "ip", "-o", "link", "show", "dev", "ovn-k8s-sub0")).contains(mac).contains(",UP");
            io.periscope.dataplane.ovs.OvsBridgeProgrammer again = new io.periscope.dataplane.ovs.OvsBridgeProgrammer(
                    ProcessCommandRunner.inNamespace(host.namespace()), java.util.Optional.of(db.substring("--db=".length())));
            assertThat(again.pending(io.periscope.lab.agent.NodeOvs.bridges(lab.plan(), host.plan()))).isEmpty();
        }
    }

    private record HostPlanOf(RunningLab lab, String cluster, String node) {
        String namespace() {
            return lab.layout().requireHost(HostId.node(cluster, node)).namespace();
        }

        io.periscope.plan.HostPlan plan() {
            return lab.layout().requireHost(HostId.node(cluster, node)).plan();
        }
    }

    /** What a failed ping leaves to read: the pod's and node's addresses and routes, and OVN's view. */
    private static String diagnose(RunningLab lab, String pod, String node, List<Path> runDirectories) {
        ProcessCommandRunner runner = ProcessCommandRunner.here();
        StringBuilder text = new StringBuilder();
        for (Command command : List.of(Command.of("ip", "addr").inNamespace(pod), Command.of("ip", "route").inNamespace(pod),
                Command.of("ip", "neigh").inNamespace(pod), Command.of("ip", "addr").inNamespace(node), Command.of("ip", "route").inNamespace(node),
                Command.of("ovn-nbctl", "--db=unix:" + runDirectories.getFirst().resolve("central/nb.sock"), "show"),
                Command.of("ovn-sbctl", "--db=unix:" + runDirectories.getFirst().resolve("central/sb.sock"), "show"),
                Command.of("ovs-vsctl", "--db=unix:" + runDirectories.getFirst().resolve("east-worker/db.sock"), "show"),
                Command.of("ovs-appctl", "-t", runDirectories.getFirst().resolve("east-worker/ovs-vswitchd.ctl").toString(), "ofproto/trace", "br-int",
                        "in_port=ovn" + java.util.HexFormat.of().toHexDigits("default_web".hashCode())
                                + ",icmp,dl_src=02:02:0a:f4:01:0a,dl_dst=02:06:0a:f4:01:02,nw_src=10.244.1.10,nw_dst=10.244.1.1,nw_ttl=64"),
                Command.of("ovs-appctl", "-t", runDirectories.getFirst().resolve("east-worker/ovs-vswitchd.ctl").toString(), "dpctl/dump-flows"))) {
            CommandResult result = runner.execute(command);
            text.append("$ ").append(command).append('\n').append(result.stdout()).append(result.stderr()).append('\n');
        }
        return text.toString();
    }

    private static CommandResult ping(String namespace, String address) {
        return ProcessCommandRunner.here().execute(Command.of("ping", "-c", "3", "-W", "2", "-i", "0.5", address).inNamespace(namespace));
    }

    private static List<Path> daemonsUnder(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".pid"))
                    .filter(p -> readPid(p).flatMap(ProcessHandle::of).map(ProcessHandle::isAlive).orElse(false)).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static java.util.Optional<Long> readPid(Path file) {
        try {
            return java.util.Optional.of(Long.parseLong(Files.readString(file).strip()));
        } catch (IOException | NumberFormatException e) {
            return java.util.Optional.empty();
        }
    }

    /** Processes whose command line names one of the directories: a daemon that outlived its lab. */
    private static List<String> processesNaming(List<Path> directories) {
        return ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                .filter(line -> directories.stream().anyMatch(d -> line.contains(d.toString()))).toList();
    }
}
