package io.periscope.lab.mtu;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * examples/path-mtu.yaml built for real: {@code ping -M do -s} from the client pod sends one echo
 * request of a given IP length with Don't Fragment set, and the kernel does with it what the
 * simulator's trace of the same ICMP flow says: 1300 bytes are answered; 1460 bytes meet worker-1's
 * vx-submariner (MTU 1450, its 1500-byte interface minus VXLAN's 50) and come back as "Frag needed
 * (mtu = 1450)" from worker-1; 1420 bytes cross both tunnels but their 1470-byte VXLAN packet is
 * refused by gw-2's 1400-byte interface, and ping hears nothing at all. Each size is tried in a lab
 * of its own state: a frag-needed answer teaches the client's kernel the path MTU, which would make
 * it refuse the next large ping itself.
 */
class PathMtuDropsWhereTheSimulatorSays {

    private static final HostId CLIENT = HostId.pod("cluster1", "default", "client");
    private static final Ipv4Address SERVER = Ipv4Address.parse("10.2.128.5");
    /** ping's -s is the ICMP payload: the IP packet is 28 bytes longer. */
    private static final int ICMP_AND_IP_HEADERS = 28;

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private record Ping(int exit, String output) {
    }

    private static Ping ping(RunningLab lab, int ipLength) throws IOException, InterruptedException {
        String namespace = lab.layout().requireHost(CLIENT).namespace();
        Process process = new ProcessBuilder("ip", "netns", "exec", namespace, "ping", "-M", "do", "-c", "1", "-W", "1", "-n",
                "-s", String.valueOf(ipLength - ICMP_AND_IP_HEADERS), SERVER.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("ping ends").isTrue();
        return new Ping(process.exitValue(), output);
    }

    private static PathTrace simulated(RunningLab lab, int ipLength) {
        Simulator simulator = new Simulator(lab.plan());
        List<PathTrace> paths = simulator.trace(new ResolvedFlow(CLIENT, Optional.of(Ipv4Address.parse("10.1.128.4")), SERVER, 0,
                Protocol.ICMP).withSize(ipLength));
        assertThat(paths).as("one path: every cluster has one gateway").hasSize(1);
        return paths.getFirst();
    }

    private static Hop lastHop(PathTrace path) {
        return path.forward().getLast();
    }

    @Test
    void aPacketThatFitsEveryDeviceIsAnswered() throws Exception {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load("path-mtu.yaml"), "mtu-fits"));
        assertThat(simulated(lab, 1300).disposition()).isEqualTo(Disposition.DELIVERED);

        Ping ping = ping(lab, 1300);
        assertThat(ping.exit()).as(ping.output()).isZero();
        assertThat(ping.output()).contains("1 received");
    }

    @Test
    void aPacketLargerThanTheTunnelComesBackAsFragNeededFromTheNodeTheSimulatorNames() throws Exception {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load("path-mtu.yaml"), "mtu-fragneeded"));
        PathTrace path = simulated(lab, 1460);
        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        Hop dropping = lastHop(path);
        assertThat(dropping.node()).isEqualTo(HostId.node("cluster1", "worker-1"));
        assertThat(dropping.steps().getLast()).isInstanceOfSatisfying(Step.Drop.class,
                drop -> assertThat(drop.reason()).contains("vx-submariner's MTU 1450").contains("ICMP fragmentation needed (mtu 1450)"));

        Ping ping = ping(lab, 1460);
        // iputils: "From 10.1.128.1 icmp_seq=1 Frag needed and DF set (mtu = 1450)", from worker-1's address towards the pod.
        assertThat(ping.output()).as("what ping heard").containsPattern("From 10\\.1\\.128\\.1 .*(Frag needed|[Ff]rag).*mtu = 1450");
        assertThat(ping.output()).contains("0 received");
    }

    @Test
    void aPacketTheReceivingInterfaceRefusesIsLostWithoutAWord() throws Exception {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load("path-mtu.yaml"), "mtu-blackhole"));
        PathTrace path = simulated(lab, 1420);
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        Hop last = lastHop(path);
        assertThat(last.node()).as("the last hop that had the packet").isEqualTo(HostId.node("cluster1", "gw-1"));
        assertThat(last.out()).as("the hop leaves by the cable, whose outer packet goes out wan0").contains("vxlan-tunnel");
        assertThat(last.steps().getLast()).isInstanceOfSatisfying(Step.Drop.class,
                drop -> assertThat(drop.reason()).contains("cluster2/gw-2 wan0's MTU 1400").contains("nobody is told"));

        Ping ping = ping(lab, 1420);
        assertThat(ping.exit()).as(ping.output()).isNotZero();
        assertThat(ping.output()).contains("0 received").doesNotContain("Frag needed").doesNotContain("mtu =");
        // The same size with the gateway's own interface big enough would pass: the loss is gw-2's MTU, nothing else.
        assertThat(ping(lab, 1300).output()).contains("1 received");
    }

    @Test
    void labProbeSendsEachFlowAtItsSizeAndSeesWhatTheSimulatorSays() {
        RunningLab lab = labs.up(RunningLab.forTest(Examples.load("path-mtu.yaml"), "mtu-probe"));

        io.periscope.lab.probe.ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        assertThat(report.flows()).hasSize(4).allSatisfy(flow -> {
            assertThat(flow.problem()).as(flow.name()).isEmpty();
            assertThat(flow.matchesSimulation()).as(flow.name() + ": " + flow.firstDifference().map(d -> d.describe()).orElse("")).isTrue();
        });
        assertThat(report.flows()).filteredOn(f -> f.name().equals("fits")).singleElement()
                .satisfies(f -> assertThat(f.attempts()).allSatisfy(a -> assertThat(a.outcome().disposition()).isEqualTo("delivered")));
        assertThat(report.flows()).filteredOn(f -> !f.name().equals("fits")).allSatisfy(f -> assertThat(f.attempts()).isNotEmpty()
                .allSatisfy(a -> assertThat(a.observed().disposition()).isEqualTo(f.name().equals("too-big-for-the-tunnel") ? "unreachable" : "dropped")));
    }
}
