package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ObservedAttempt;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.trace.TraceEncap;
import io.periscope.lab.trace.TraceHop;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway behind NAT (a {@code publicIP} other than its {@code ip}) sends from its private address
 * and the environment's NAT device, played by its own namespace, translates on {@code wan0}. In the
 * kernel the cable's outer packet reaches the WAN from the public address although the gateway's
 * route sends it from the private one, the other cluster's answer comes back through conntrack, and
 * what the lab sees matches the simulator, which shows the same packet leave the cable from the
 * private address before the device's SNAT. The Libreswan cable runs as vxlan here (no XFRM), whose
 * outer packets cross the device the same way.
 */
class AGatewayBehindNatCrossesTheNatDeviceInTheKernel {

    private static final String TOPOLOGY = """
            name: nat
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: east-gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true, publicIP: 198.51.100.1}
                  - {name: east-worker, ip: 172.20.1.3, cniIP: 10.1.1.1}
                pods:
                  - {name: client, namespace: default, node: east-worker, ip: 10.1.1.10}
              - name: west
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: west-gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}
                  - {name: west-worker, ip: 172.20.2.3, cniIP: 10.2.1.1}
                pods:
                  - {name: server, namespace: default, node: west-worker, ip: 10.2.1.10}
            flows:
              - {name: client-to-server, from: east/default/client, to: west/default/server:5432, protocol: tcp}
            """;

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void theCablesOuterPacketReachesTheWanFromThePublicAddressAndTheReplyComesBack() throws Exception {
        ClusterSet set = TopologyLoader.parse(TOPOLOGY, "nat.yaml");
        RunningLab lab = labs.up(RunningLab.forTest(set, "nat"));

        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        assertThat(report.flows()).singleElement().satisfies(flow -> assertThat(flow.problem()).isEmpty());
        FlowProbeResult flow = report.flows().getFirst();
        assertThat(flow.attempts()).isNotEmpty();
        for (ObservedAttempt attempt : flow.attempts()) {
            assertThat(attempt.outcome().disposition()).isEqualTo("delivered");
            assertThat(attempt.match().matches()).as("from port %d: %s", attempt.outcome().sourcePort(), attempt.match().firstDifference())
                    .isTrue();
            assertThat(cableEncap(attempt.observed().forward(), "east/east-gw")).satisfies(e -> {
                assertThat(e.outerSrc()).isEqualTo(Ipv4Address.parse("198.51.100.1"));
                assertThat(e.outerDst()).isEqualTo(Ipv4Address.parse("172.20.2.2"));
            });
            assertThat(cableEncap(attempt.observed().reply(), "west/west-gw")).satisfies(e -> {
                assertThat(e.outerSrc()).isEqualTo(Ipv4Address.parse("172.20.2.2"));
                assertThat(e.outerDst()).isEqualTo(Ipv4Address.parse("198.51.100.1"));
            });
        }
        assertThat(report.matchesSimulation()).isTrue();

        // What the kernel put on the WAN is the NAT device's work: the simulator, on the plan the lab
        // built, has the cable send from the private address and NAT-DEVICE-OUT translate it.
        PathTrace simulated = new Simulator(lab.plan()).trace(lab.set().flows().getFirst()).paths().getFirst();
        Hop east = simulated.forward().stream().filter(h -> h.node().equals(HostId.node("east", "east-gw"))).findFirst().orElseThrow();
        assertThat(east.steps()).anySatisfy(s -> assertThat(s).isInstanceOfSatisfying(Step.Encap.class,
                e -> assertThat(e.outerSrc()).isEqualTo(Ipv4Address.parse("172.20.1.2"))));
        assertThat(east.steps()).anySatisfy(s -> assertThat(s).isInstanceOfSatisfying(Step.Snat.class,
                n -> assertThat(n.rule()).hasValueSatisfying(r -> assertThat(r.chain()).isEqualTo("NAT-DEVICE-OUT"))));

        assertThat(lab.down()).containsExactlyInAnyOrderElementsOf(lab.layout().namespaces());
    }

    /** The encapsulation of the gateway's cable (vxlan-tunnel, out of wan0) in these hops. */
    private static TraceEncap cableEncap(List<TraceHop> hops, String node) {
        return hops.stream().filter(h -> h.node().equals(node)).map(TraceHop::encap).flatMap(Optional::stream)
                .filter(e -> e.underlay().equals("wan0")).findFirst()
                .orElseThrow(() -> new AssertionError("no encapsulation out of wan0 at " + node + " in " + hops));
    }
}
