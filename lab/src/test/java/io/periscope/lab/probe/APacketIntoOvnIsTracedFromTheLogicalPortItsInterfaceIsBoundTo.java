package io.periscope.lab.probe;

import io.periscope.lab.Examples;
import io.periscope.lab.capture.CapturedFrame;
import io.periscope.lab.capture.IpDatagram;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.link.MacAddress;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a packet goes into an OVN cluster of seed 003, and what {@code ovn-trace} is asked about it:
 * the logical switch port the interface it left by is bound to, and the headers the capture saw.
 */
class APacketIntoOvnIsTracedFromTheLogicalPortItsInterfaceIsBoundTo {

    private final ClusterSetPlan plan = Planner.plan(Examples.load(Examples.GLOBALNET_OVN));

    @Test
    void podsManagementPortsAndTheGatewaysSub0AreBoundToTheirLogicalPorts() {
        OvnPort pod = OvnPort.of(plan, HostId.pod("east", "default", "web"), "eth0").orElseThrow();
        assertThat(pod.logicalSwitch()).isEqualTo("east-worker");
        assertThat(pod.port()).isEqualTo("default_web");
        assertThat(pod.routers()).contains("ovn_cluster_router", "submariner_router");

        assertThat(OvnPort.of(plan, HostId.node("west", "west-worker"), "ovn-k8s-mp0"))
                .hasValueSatisfying(p -> assertThat(p.port()).isEqualTo("k8s-west-worker"));
        // Only the chassis submariner_router is bound to carries the gateway switch's localnet port.
        assertThat(OvnPort.of(plan, HostId.node("east", "east-gw"), "ovn-k8s-sub0"))
                .hasValueSatisfying(p -> assertThat(p.logicalSwitch() + " " + p.port()).isEqualTo("submariner_gateway submariner_localnet"));
        assertThat(OvnPort.of(plan, HostId.node("east", "east-worker"), "ovn-k8s-sub0")).isEmpty();
        assertThat(OvnPort.of(plan, HostId.node("east", "east-gw"), "eth0")).isEmpty();
    }

    @Test
    void theMicroflowIsTheCapturedFrameAtItsPort() {
        IpDatagram synAck = new IpDatagram(Ipv4Address.parse("10.244.1.10"), Ipv4Address.parse("242.0.0.3"), IpDatagram.TCP, 60, 8080, 40000,
                new IpDatagram.TcpFields(7, 2, IpDatagram.TCP_SYN | IpDatagram.TCP_ACK, 5, 4), 0, 0, "", Optional.empty());
        CapturedFrame frame = new CapturedFrame(MacAddress.parse("02:02:0a:f4:01:0a"), MacAddress.parse("02:06:0a:f4:01:02"), synAck,
                Optional.empty());

        assertThat(SouthboundTrace.microflow("default_nginx-1", frame)).isEqualTo("inport == \"default_nginx-1\" && eth.src == 02:02:0a:f4:01:0a"
                + " && eth.dst == 02:06:0a:f4:01:02 && ip4.src == 10.244.1.10 && ip4.dst == 242.0.0.3 && ip.ttl == 64"
                + " && tcp && tcp.src == 8080 && tcp.dst == 40000 && tcp.flags == 0x012");
        assertThat(HopReconstruction.answers(synAck)).isTrue();
    }
}
