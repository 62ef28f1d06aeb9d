package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.plan.HostId;
import io.periscope.plan.link.MacAddress;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.TraceQueries.delivered;
import static io.periscope.simulator.TraceQueries.hopAt;
import static io.periscope.simulator.TraceQueries.nodes;
import static io.periscope.simulator.TraceQueries.packet;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Three nodes, each with a vx-submariner device (VNI 100, UDP 4800, 240.0.0.n/8) on eth0; pods live
 * on n2 and n3, the client on n1. Pod blocks are routed through the tunnel only, not the underlay.
 * As upstream programs them, the devices have the kernel's MACs and all-zero FDB entries only.
 */
class VxlanCarriesPacketsBetweenHosts {

    private static final HostId CLIENT = HostId.pod("c1", "default", "client");
    private static final HostId N1 = HostId.node("c1", "n1");
    private static final HostId N2 = HostId.node("c1", "n2");
    private static final HostId N3 = HostId.node("c1", "n3");

    private final PlanFixture f = new PlanFixture();
    private final PlanFixture.HostBuilder n1 = f.node("c1", "n1", "172.18.0.1", "10.0.1.1");
    private final PlanFixture.HostBuilder n2 = f.node("c1", "n2", "172.18.0.2", "10.0.2.1");
    private final PlanFixture.HostBuilder n3 = f.node("c1", "n3", "172.18.0.3", "10.0.3.1");

    VxlanCarriesPacketsBetweenHosts() {
        f.pod(n1, "default", "client", "10.0.1.4");
        f.pod(n2, "default", "server", "10.0.2.5");
        f.pod(n3, "default", "other", "10.0.3.5");
        for (PlanFixture.HostBuilder n : List.of(n1, n2, n3)) {
            int i = n.id.name().charAt(1) - '0';
            n.vxlan("vx-submariner", 100, 4800, "172.18.0." + i, "eth0", "240.0.0." + i, "240.0.0.0/8");
            for (int j = 1; j <= 3; j++) {
                if (j != i) {
                    n.route("172.18.0." + j + " dev eth0");
                }
            }
        }
        n2.route("10.0.1.0/24 via 240.0.0.1 dev vx-submariner").fdb("vx-submariner", MacAddress.ZERO, "172.18.0.1");
        n3.route("10.0.1.0/24 via 240.0.0.1 dev vx-submariner").fdb("vx-submariner", MacAddress.ZERO, "172.18.0.1");
    }

    @Test
    void theAnswerToArpGivesTheOuterDestinationAndThePeersDeviceDecapsulates() {
        n1.route("10.0.2.0/24 via 240.0.0.2 dev vx-submariner").fdb("vx-submariner", MacAddress.ZERO, "172.18.0.2");
        List<PathTrace> paths = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.2.5", 80));

        assertThat(paths).singleElement().satisfies(p -> assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED));
        PathTrace path = paths.getFirst();
        Hop sender = hopAt(path.forward(), N1);
        assertThat(sender.out()).contains("vx-submariner");
        assertThat(sender.depart()).hasValueSatisfying(p -> assertThat(p.sameFlow(packet("10.0.1.4", 40000, "10.0.2.5", 80))).isTrue());
        Step.Encap encap = steps(List.of(sender), Step.Encap.class).getFirst();
        assertThat(encap.vni()).hasValue(100);
        assertThat(encap.encrypted()).isFalse();
        assertThat(encap.port()).isEqualTo(4800);
        assertThat(encap.outerSrc()).isEqualTo(ip("172.18.0.1"));
        assertThat(encap.outerDst()).isEqualTo(ip("172.18.0.2"));
        assertThat(encap.underlay()).isEqualTo("eth0");
        assertThat(encap.packet().dport()).isEqualTo(4800);
        assertThat(encap.resolution()).isEqualTo("ARP flooded to [172.18.0.2]: 240.0.0.2 is at c1/n2 vx-submariner's MAC; the frame for it,"
                + " which no FDB entry names, is flooded to the same destinations and kept by 172.18.0.2 alone");

        Hop receiver = hopAt(path.forward(), N2);
        assertThat(receiver.in()).contains("vx-submariner");
        assertThat(receiver.arrive().sameFlow(packet("10.0.1.4", 40000, "10.0.2.5", 80))).isTrue();
        Step.Decap decap = steps(List.of(receiver), Step.Decap.class).getFirst();
        assertThat(decap.device()).isEqualTo("vx-submariner");
        assertThat(decap.underlay()).isEqualTo("eth0");
        assertThat(delivered(path.reply()).sameFlow(packet("10.0.2.5", 80, "10.0.1.4", 40000))).isTrue();
    }

    @Test
    void theArpFloodIsAnsweredOnlyByTheOwnerOfTheNextHopWhoseHostKeepsTheFrame() {
        n1.route("10.0.3.0/24 via 240.0.0.3 dev vx-submariner")
                .fdb("vx-submariner", MacAddress.ZERO, "172.18.0.2")
                .fdb("vx-submariner", MacAddress.ZERO, "172.18.0.3");
        List<PathTrace> paths = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.3.5", 80));

        assertThat(paths).singleElement().satisfies(p -> {
            assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED);
            assertThat(nodes(p.forward())).containsExactly(CLIENT, N1, N3, HostId.pod("c1", "default", "other"));
            Step.Encap encap = steps(p.forward(), Step.Encap.class).getFirst();
            assertThat(encap.outerDst()).isEqualTo(ip("172.18.0.3"));
            assertThat(encap.resolution()).startsWith("ARP flooded to [172.18.0.2, 172.18.0.3]: 240.0.0.3 is at c1/n3 vx-submariner's MAC")
                    .endsWith("kept by 172.18.0.3 alone");
        });
    }

    @Test
    void aLearningDeviceSendsTheFrameToTheOwnerAloneAfterTheFloodedArp() {
        n1.route("10.0.3.0/24 via 240.0.0.3 dev vx-submariner")
                .fdb("vx-submariner", MacAddress.ZERO, "172.18.0.2")
                .fdb("vx-submariner", MacAddress.ZERO, "172.18.0.3")
                .learning("vx-submariner");
        List<PathTrace> paths = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.3.5", 80));

        assertThat(paths).singleElement().satisfies(p -> {
            assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED);
            Step.Encap encap = steps(p.forward(), Step.Encap.class).getFirst();
            assertThat(encap.outerDst()).isEqualTo(ip("172.18.0.3"));
            assertThat(encap.resolution()).isEqualTo("ARP flooded to [172.18.0.2, 172.18.0.3]: 240.0.0.3 is at c1/n3 vx-submariner's MAC;"
                    + " the device learned that MAC at 172.18.0.3 from the reply, so the frame goes there alone");
        });
    }

    @Test
    void anArpRequestNobodyAnswersMakesTheNextHopUnreachable() {
        n1.route("10.0.3.0/24 via 240.0.0.9 dev vx-submariner")
                .fdb("vx-submariner", MacAddress.ZERO, "172.18.0.2")
                .fdb("vx-submariner", MacAddress.ZERO, "172.18.0.3");
        PathTrace path = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.3.5", 80)).getFirst();
        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("ARP for 240.0.0.9").contains("no answer"));
    }

    @Test
    void withoutAnFdbEntryTheArpRequestGoesNowhere() {
        n1.route("10.0.3.0/24 via 240.0.0.3 dev vx-submariner");
        PathTrace path = new Simulator(f.build()).trace(tcp(CLIENT, "10.0.1.4", "10.0.3.5", 80)).getFirst();
        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("no FDB entry to flood an ARP request for 240.0.0.3 to"));
    }

    @Test
    void aPlanThatFixesAPeersMacIsRefusedForTheKernelPicksIt() {
        n1.route("10.0.3.0/24 via 240.0.0.3 dev vx-submariner")
                .fdb("vx-submariner", MacAddress.parse("02:40:00:00:00:03"), "172.18.0.3");
        assertThatThrownBy(() -> new Simulator(f.build())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("c1/n1: the FDB entry 02:40:00:00:00:03 dst 172.18.0.3 on vx-submariner names a MAC the kernel picks");

        PlanFixture g = new PlanFixture();
        PlanFixture.HostBuilder node = g.node("c1", "n1", "172.18.0.1", "10.0.1.1");
        node.vxlan("vx-submariner", 100, 4800, "172.18.0.1", "eth0", "240.0.0.1", "240.0.0.0/8")
                .neighbour("vx-submariner", "240.0.0.3", MacAddress.parse("02:40:00:00:00:03"));
        assertThatThrownBy(() -> new Simulator(g.build())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("c1/n1: the neighbour entry 240.0.0.3 lladdr 02:40:00:00:00:03 on vx-submariner");
    }
}
