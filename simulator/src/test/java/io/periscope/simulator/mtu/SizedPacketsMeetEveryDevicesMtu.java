package io.periscope.simulator.mtu;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.NodeLink;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flow with a size carries one IP packet of that length with Don't Fragment set, and each device's
 * MTU decides what happens to it, as in the kernel (the lab's {@code PathMtuDropsWhereTheSimulatorSays}
 * sends the same packets with {@code ping -M do}): a forwarding node answers ICMP fragmentation
 * needed, the sending socket refuses outright, a receiving interface drops silently, and a tunnel's
 * outer packet, which never has Don't Fragment, is fragmented.
 */
class SizedPacketsMeetEveryDevicesMtu {

    private static final HostId CLIENT = HostId.pod("cluster1", "default", "client");
    private static final Ipv4Address CLIENT_IP = Ipv4Address.parse("10.1.128.4");
    private static final Ipv4Address SERVER = Ipv4Address.parse("10.2.128.5");

    private static ClusterSet example(String name) throws Exception {
        return TopologyLoader.load(Path.of("..", "examples", name));
    }

    private static PathTrace only(List<PathTrace> paths) {
        assertThat(paths).hasSize(1);
        return paths.getFirst();
    }

    private static PathTrace udp(Simulator simulator, int size) {
        return only(simulator.trace(new ResolvedFlow(CLIENT, Optional.of(CLIENT_IP), SERVER, 7, Protocol.UDP).withSize(size)));
    }

    @Test
    void aPacketThatFitsIsDeliveredAndAnsweredAtItsFullSize() throws Exception {
        PathTrace path = udp(new Simulator(Planner.plan(example("path-mtu.yaml"))), 1300);

        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(path.forward().getLast().arrive().length()).isEqualTo(1300);
        assertThat(path.reply().getLast().arrive().length()).as("the echo is as long as the request").isEqualTo(1300);
        Step.Encap encap = path.forward().stream().flatMap(h -> h.steps().stream()).filter(Step.Encap.class::isInstance)
                .map(Step.Encap.class::cast).findFirst().orElseThrow();
        assertThat(encap.packet().length()).as("VXLAN adds 50 bytes").isEqualTo(1350);
        assertThat(encap.packet().df()).as("the VXLAN device leaves DF off its outer packet").isFalse();
    }

    @Test
    void aForwardingNodeAnswersFragNeededWithItsDevicesMtu() throws Exception {
        PathTrace path = udp(new Simulator(Planner.plan(example("path-mtu.yaml"))), 1460);

        assertThat(path.disposition()).as("ICMP fragmentation needed is a destination unreachable").isEqualTo(Disposition.UNREACHABLE);
        Hop last = path.forward().getLast();
        assertThat(last.node()).isEqualTo(HostId.node("cluster1", "worker-1"));
        assertThat(last.depart()).as("it never leaves worker-1").isEmpty();
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r)
                .contains("vx-submariner's MTU 1450").contains("ICMP fragmentation needed (mtu 1450) goes back to 10.1.128.4"));
    }

    @Test
    void theSendingSocketRefusesWhatItsOwnDeviceCannotCarry() throws Exception {
        PathTrace path = udp(new Simulator(Planner.plan(example("path-mtu.yaml"))), 1600);

        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.forward()).hasSize(1);
        assertThat(path.forward().getFirst().node()).isEqualTo(CLIENT);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("EMSGSIZE").contains("eth0's MTU is 1500"));
    }

    @Test
    void aReceivingInterfaceWithASmallerMtuLosesThePacketWithoutAWord() throws Exception {
        FlowTrace trace = new Simulator(Planner.plan(example("path-mtu.yaml"))).trace(example("path-mtu.yaml").flow("lost-at-gw-2").orElseThrow());
        PathTrace path = only(trace.paths());

        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        Hop last = path.forward().getLast();
        assertThat(last.node()).as("the last host that had it sent it").isEqualTo(HostId.node("cluster1", "gw-1"));
        assertThat(last.depart()).isPresent();
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("1470 bytes").contains("cluster2/gw-2 wan0's MTU 1400")
                .contains("nobody is told"));
    }

    @Test
    void theSameFlowWithoutASizeIsDeliveredAsBefore() throws Exception {
        ClusterSet set = example("path-mtu.yaml");
        Simulator simulator = new Simulator(Planner.plan(set));
        PathTrace path = only(simulator.trace(new ResolvedFlow(CLIENT, Optional.of(CLIENT_IP), SERVER, 0, Protocol.ICMP)));
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(path.forward()).allSatisfy(h -> assertThat(h.arrive().length()).isZero());
    }

    @Test
    void wireGuardsFixedMtuOverASmallerUnderlayFragmentsTheOuterPacket() throws Exception {
        // Upstream's WireGuard device keeps 1420 whatever the interface below it: over 1400-byte
        // interfaces a 1340-byte packet (which fits every VXLAN device, 1350) leaves as 1404 bytes.
        ClusterSet original = example("on-premise-vxlan-cloud-wireguard.yaml");
        ClusterSet set = original.withClusters(original.clusters().stream().map(SizedPacketsMeetEveryDevicesMtu::at1400).toList());
        Simulator simulator = new Simulator(Planner.plan(set));
        PathTrace path = only(simulator.trace(simulator.resolver().resolve(set.flow("analytics-ping-frontend").orElseThrow()).withSize(1340)));

        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        List<Step.Fragment> fragments = path.forward().stream().flatMap(h -> h.steps().stream()).filter(Step.Fragment.class::isInstance)
                .map(Step.Fragment.class::cast).toList();
        assertThat(fragments).singleElement().satisfies(f -> {
            assertThat(f.mtu()).isEqualTo(1400);
            assertThat(f.packet().length()).isEqualTo(1396);
            assertThat(f.packet().df()).isFalse();
        });
        assertThat(path.forward().getLast().steps().getLast()).isInstanceOfSatisfying(Step.Deliver.class,
                d -> assertThat(d.packet().length()).as("reassembled").isEqualTo(1340));
    }

    private static Cluster at1400(Cluster cluster) {
        return cluster.withNodes(cluster.nodes().stream().map(n -> n.withLink(new NodeLink(Optional.empty(), java.util.OptionalInt.of(1400))))
                .toList());
    }
}
