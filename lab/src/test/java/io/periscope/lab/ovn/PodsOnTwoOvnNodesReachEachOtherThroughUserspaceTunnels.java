package io.periscope.lab.ovn;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.command.RunningProgram;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A two-node cluster on OVN with the userspace datapath: pods on different nodes ping each other
 * through OVN's logical router and a Geneve tunnel that ovs-vswitchd encapsulates itself, a node
 * reaches a pod of the other node through its management port, and closing the cluster leaves no
 * daemon, socket or run directory behind (the test removes its namespaces, and checks that too).
 *
 * <p>Needs root (namespaces) and Open vSwitch / OVN (Debian openvswitch-switch, ovn-host,
 * ovn-central, and ethtool); run it under {@code flock /tmp/periscope-lab.lock}, as every test that
 * starts lab daemons.
 */
class PodsOnTwoOvnNodesReachEachOtherThroughUserspaceTunnels {

    private static final Ipv4Address UNDERLAY_1 = Ipv4Address.parse("172.30.0.1");
    private static final Ipv4Address UNDERLAY_2 = Ipv4Address.parse("172.30.0.2");
    private static final Ipv4Address POD_A = Ipv4Address.parse("10.244.1.5");
    private static final Ipv4Address POD_B = Ipv4Address.parse("10.244.2.5");

    private final CommandRunner runner = ProcessCommandRunner.here();
    private final String prefix = "pko" + ProcessHandle.current().pid() + "-";
    private final List<String> namespaces = new ArrayList<>();
    private final Thread onSignal = Thread.ofPlatform().unstarted(this::removeNamespaces);

    @Test
    void podsPingAcrossNodesThroughGeneveInUserspaceAndCloseLeavesNothing() throws IOException {
        Assumptions.assumeTrue(NetworkNamespaces.runningAsRoot(), "the OVN lab creates network namespaces, which needs root");
        Optional<String> unavailable = OvnPrograms.datapathUnavailable();
        Assumptions.assumeTrue(unavailable.isEmpty(), unavailable::orElseThrow);

        Path runDirectory = Files.createTempDirectory("pko").resolve("c1");
        // A SIGINT or SIGTERM of the test JVM: OvnCluster's own hook stops the daemons, this one the namespaces.
        Runtime.getRuntime().addShutdownHook(onSignal);
        List<Long> daemonPids = new ArrayList<>();
        try {
            namespace("n1");
            namespace("n2");
            namespace("a");
            namespace("b");
            runner.run(Command.of("ip", "link", "add", "eth0", "type", "veth", "peer", "name", "eth0", "netns", ns("n2"))
                    .inNamespace(ns("n1")));
            underlay("n1", UNDERLAY_1);
            underlay("n2", UNDERLAY_2);
            OvnClusterSpec spec = new OvnClusterSpec("c1", Ipv4Prefix.parse("10.244.0.0/16"), Ipv4Prefix.parse("100.64.0.0/16"), List.of(
                    new OvnNodeSpec("n1", ns("n1"), "eth0", UNDERLAY_1, 24, Ipv4Prefix.parse("10.244.1.0/24")),
                    new OvnNodeSpec("n2", ns("n2"), "eth0", UNDERLAY_2, 24, Ipv4Prefix.parse("10.244.2.0/24"))));

            long started = System.nanoTime();
            long closing;
            try (OvnCluster cluster = OvnCluster.start(runner, spec, runDirectory)) {
                long up = System.nanoTime();
                cluster.daemons().forEach(d -> daemonPids.add(OvnDaemons.pidOf(d.pidFile()).orElseThrow()));
                assertThat(cluster.daemons()).extracting(OvnDaemon::program).containsExactly(
                        "ovsdb-server", "ovsdb-server", "ovn-northd",
                        "ovsdb-server", "ovs-vswitchd", "ovn-controller",
                        "ovsdb-server", "ovs-vswitchd", "ovn-controller");
                OvnPod a = cluster.attachPod("n1", ns("a"), "default_a", POD_A);
                cluster.attachPod("n2", ns("b"), "default_b", POD_B);
                long attached = System.nanoTime();

                CommandResult ping = runner.execute(Command.of("ping", "-c", "3", "-i", "0.2", "-W", "2", POD_B.toString()).inNamespace(ns("a")));
                assertThat(ping.exitCode()).as("pod a pings pod b: %s", ping.stdout()).isZero();
                assertThat(ping.stdout()).contains("3 received");

                // The packet's path through n1's datapath: routed by OVN (TTL lowered, MACs rewritten
                // to pod b's) and pushed into a Geneve header towards n2's underlay address.
                String trace = cluster.chassis("n1").appctl("ofproto/trace", "br-int",
                        "in_port=" + a.nodeDevice() + ",icmp,dl_src=" + OvnClusterSpec.macOf(POD_A) + ",dl_dst="
                                + OvnClusterSpec.macOf(Ipv4Address.parse("10.244.1.1")) + ",nw_src=" + POD_A + ",nw_dst=" + POD_B + ",nw_ttl=64");
                String actions = trace.lines().filter(l -> l.startsWith("Datapath actions:")).findFirst().orElse("");
                assertThat(actions).as(trace).contains("tnl_push(").contains("geneve(").contains("dst=" + UNDERLAY_2)
                        .contains("set(ipv4(ttl=63))").contains("dst=" + OvnClusterSpec.macOf(POD_B));

                // What really passed: n2's datapath popped Geneve packets from n1, and n1's pushed some.
                assertThat(packets(cluster.chassis("n2").appctl("dpctl/dump-flows"), "tnl_pop")).isPositive();
                assertThat(packets(cluster.chassis("n1").appctl("dpctl/dump-flows"), "tnl_push")).isPositive();

                // Node n1 reaches pod b through its management port ovn-k8s-mp0, as a kubelet's probe would.
                CommandResult fromNode = runner.execute(Command.of("ping", "-c", "2", "-i", "0.2", "-W", "2", POD_B.toString())
                        .inNamespace(ns("n1")));
                assertThat(fromNode.exitCode()).as("node n1 pings pod b: %s", fromNode.stdout()).isZero();

                // TCP too, which the userspace datapath drops when checksums are left to offload.
                // What pod b's eth0 took in is the measure, not iperf3's own figure: that one is the server's report,
                // sent back at the end over the control connection, and read 0 once (CI, a fresh machine, load 6).
                long receivedBefore = receivedBytes(ns("b"));
                TcpRun tcp = tcpThroughput();
                long received = receivedBytes(ns("b")) - receivedBefore;
                System.out.printf("OVN cluster of 2 nodes up in %d ms, 2 pods attached in %d ms; TCP pod a -> pod b through"
                        + " userspace Geneve %.0f Mbit/s (iperf3, 2 s), %d bytes into pod b%n", (up - started) / 1_000_000, (attached - up) / 1_000_000,
                        tcp.bitsPerSecond() / 1e6, received);
                // 2 s at more than 1 Mbit/s, far more than the handshakes, so full-sized segments crossed.
                assertThat(received).as("bytes into pod b during TCP from pod a, full-sized segments included; iperf3 said: %s", tcp.report())
                        .isGreaterThan(250_000L);
                assertThat(daemonPids).allMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
                closing = System.nanoTime();
            }
            System.out.printf("OVN cluster of 2 nodes closed in %d ms%n", (System.nanoTime() - closing) / 1_000_000);

            assertThat(runDirectory).doesNotExist();
            assertThat(daemonPids).as("daemons still running after close").noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        } finally {
            OvnDaemons.stopAllUnder(runDirectory);
            removeNamespaces();
            Files.deleteIfExists(runDirectory.getParent());
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // the hook removes them
            }
        }
        assertThat(namespaces).noneMatch(NetworkNamespaces::exists);
    }

    /** What iperf3 reported: its JSON, and the bits per second the server said it received. */
    private record TcpRun(double bitsPerSecond, String report) {
    }

    /** The bytes {@code eth0} of the pod in {@code namespace} has received so far. */
    private long receivedBytes(String namespace) throws IOException {
        String json = runner.run(Command.of("ip", "-s", "-j", "link", "show", "dev", "eth0").inNamespace(namespace)).stdout();
        return new ObjectMapper().readTree(json).path(0).path("stats64").path("rx").path("bytes").asLong();
    }

    /** iperf3 from pod a to pod b for 2 s. */
    private TcpRun tcpThroughput() throws IOException {
        RunningProgram server = runner.start(Command.of("iperf3", "-s", "-1", "-p", "5201").inNamespace(ns("b")));
        try {
            CommandResult client = null;
            // The server may not listen yet: a refused connection is tried again, for up to 3 s. iperf3
            // (3.12) exits 0 even then, with the error in its JSON: its output tells, not its status.
            for (int attempt = 0; attempt < 15; attempt++) {
                client = runner.execute(Command.of("iperf3", "-c", POD_B.toString(), "-p", "5201", "-t", "2", "-J").inNamespace(ns("a")));
                if (!client.stdout().contains("Connection refused")) {
                    break;
                }
                sleep(200);
            }
            assertThat(client.exitCode()).as("iperf3 pod a -> pod b: %s %s", client.stdout(), client.stderr()).isZero();
            JsonNode report = new ObjectMapper().readTree(client.stdout());
            assertThat(report.path("error").asText("")).as("iperf3 pod a -> pod b: %s", client.stdout()).isEmpty();
            return new TcpRun(report.path("end").path("sum_received").path("bits_per_second").asDouble(), client.stdout());
        } finally {
            server.stop();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The packets of the datapath flows whose actions contain {@code action}, summed. */
    private static long packets(String flows, String action) {
        Pattern counted = Pattern.compile("packets:(\\d+)");
        long total = 0;
        for (String flow : flows.lines().filter(l -> l.contains(action)).toList()) {
            Matcher m = counted.matcher(flow);
            if (m.find()) {
                total += Long.parseLong(m.group(1));
            }
        }
        return total;
    }

    private String ns(String name) {
        return prefix + name;
    }

    private void namespace(String name) {
        runner.run(Command.of("ip", "netns", "add", TestNamespace.deletedOnExit(ns(name))));
        namespaces.add(ns(name));
        runner.run(Command.of("ip", "link", "set", "lo", "up").inNamespace(ns(name)));
    }

    private void underlay(String node, Ipv4Address address) {
        runner.run(Command.of("ip", "addr", "add", address + "/24", "dev", "eth0").inNamespace(ns(node)));
        runner.run(Command.of("ip", "link", "set", "eth0", "up").inNamespace(ns(node)));
    }

    private synchronized void removeNamespaces() {
        for (String namespace : namespaces) {
            runner.execute(Command.of("ip", "netns", "del", namespace));
        }
    }
}
