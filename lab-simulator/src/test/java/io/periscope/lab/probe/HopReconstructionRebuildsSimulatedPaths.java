package io.periscope.lab.probe;

import io.periscope.lab.TestTopologies;
import io.periscope.lab.Examples;
import io.periscope.lab.capture.CapturedFrame;
import io.periscope.lab.layout.LabCables;
import io.periscope.planner.Planner;
import io.periscope.lab.capture.Direction;
import io.periscope.lab.capture.IpDatagram;
import io.periscope.lab.capture.Sighting;
import io.periscope.lab.trace.TraceEncap;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePacket;
import io.periscope.lab.trace.TracePath;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.VxlanDevice;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every simulated path of the shipped examples (and of a topology with WireGuard cables) as the lab
 * builds them, turned into the frames its packet would show on each interface (VXLAN or encrypted
 * WireGuard outer packets on the underlay, inner ones on the tunnel devices, frames of
 * other connections mixed in, everything shuffled), is rebuilt hop for hop by the reconstruction.
 */
class HopReconstructionRebuildsSimulatedPaths {

    private static final long SEQUENCE = 0x1234_5678L;
    /** The test topology whose cloud cluster is reached over WireGuard. */
    private static final String VXLAN_AND_WIREGUARD = "client-server-vxlan-wireguard";

    @ParameterizedTest
    @ValueSource(strings = {Examples.MAG_GLOBALNET, Examples.GLOBALNET_EGRESS, "mag-vanilla.yaml", VXLAN_AND_WIREGUARD})
    void everyForwardAndReplyIsRebuiltFromItsSightings(String example) {
        ClusterSet set = example.equals(VXLAN_AND_WIREGUARD) ? TestTopologies.clientServerOverVxlanAndWireguard()
                : Examples.load(example);
        ClusterSetPlan plan = Planner.plan(LabCables.of(set).set());
        Random random = new Random(example.hashCode());
        LabWiring wiring = new LabWiring(plan, withKernelVxlanMacs(plan, random));
        SimulatorFlows simulation = new SimulatorFlows(plan);
        int paths = 0;
        for (var flow : plan.clusterSet().flows()) {
            ProbeTarget target = simulation.resolve(flow);
            for (TracePath path : simulation.paths(target, 40000)) {
                List<Sighting> sightings = new ArrayList<>(replay(plan, wiring, path.forward(), IpDatagram.TCP_SYN, SEQUENCE, 0));
                sightings.addAll(replay(plan, wiring, path.reply(), IpDatagram.TCP_SYN | IpDatagram.TCP_ACK, 77, SEQUENCE + 1));
                sightings.addAll(replay(plan, wiring, path.forward(), IpDatagram.TCP_SYN, SEQUENCE + 1000, 0));
                Collections.shuffle(sightings, random);

                List<TraceHop> forward = new HopReconstruction(wiring, sightings, new PacketIdentity.TcpSyn(SEQUENCE, PacketIdentity.ANY))
                        .follow(id(path.forward().getFirst().node()), path.forward().getFirst().arrive());
                assertThat(forward).as("forward of %s", path.route()).isEqualTo(path.forward());
                // A flow no cable carries has no reply.
                if (!path.reply().isEmpty()) {
                    List<TraceHop> reply = new HopReconstruction(wiring, sightings,
                            new PacketIdentity.TcpSynAck(SEQUENCE, PacketIdentity.ANY, PacketIdentity.ANY))
                            .follow(id(path.reply().getFirst().node()), path.reply().getFirst().arrive());
                    assertThat(reply).as("reply of %s", path.route()).isEqualTo(path.reply());
                }
                paths++;
            }
        }
        assertThat(paths).isPositive();
    }

    /** The planned MACs, and for each VXLAN device a random one, as the kernel gives it. */
    static Map<LabWiring.Port, MacAddress> withKernelVxlanMacs(ClusterSetPlan plan, Random random) {
        Map<LabWiring.Port, MacAddress> macs = new HashMap<>(LabWiring.plannedMacs(plan));
        for (HostPlan host : plan.hosts().values()) {
            for (VxlanDevice device : host.submariner().vxlanDevices()) {
                // Locally administered unicast, the kind the kernel's eth_random_addr gives.
                macs.put(new LabWiring.Port(host.id(), device.name()), new MacAddress(random.nextLong() & 0xfeffffffffffL | 0x020000000000L));
            }
        }
        return macs;
    }

    /** The frames a path's packet shows, with timestamps in the order the kernel would stamp them. */
    static List<Sighting> replay(ClusterSetPlan plan, LabWiring wiring, List<TraceHop> hops, int flags, long seq, long ack) {
        List<Sighting> sightings = new ArrayList<>();
        long time = 1_000;
        for (int i = 0; i < hops.size(); i++) {
            TraceHop hop = hops.get(i);
            HostId host = id(hop.node());
            if (i > 0) {
                TraceHop previous = hops.get(i - 1);
                HostId from = id(previous.node());
                String wire = previous.encap().map(TraceEncap::underlay).orElse(previous.out().orElseThrow());
                String received = receivingInterface(plan, from, wire, host);
                MacAddress sender = wiring.mac(new LabWiring.Port(from, wire)).orElseThrow();
                MacAddress receiver = wiring.mac(new LabWiring.Port(host, received)).orElseThrow();
                if (previous.encap().isPresent() && encrypted(previous.encap().get())) {
                    TraceEncap encap = previous.encap().get();
                    CapturedFrame inner = frame(MacAddress.ZERO, MacAddress.ZERO, datagram(previous.depart().orElseThrow(), flags, seq, ack));
                    sightings.add(new Sighting(host, received, Direction.ARRIVING, time++, wireGuard(sender, receiver, encap, listenPort(wiring, from, encap))));
                    sightings.add(new Sighting(host, hop.in().orElseThrow(), Direction.ARRIVING, time++, inner));
                } else if (previous.encap().isPresent()) {
                    TraceEncap encap = previous.encap().get();
                    CapturedFrame inner = frame(mac(wiring, from, encap.device()), mac(wiring, host, hop.in().orElseThrow()),
                            datagram(previous.depart().orElseThrow(), flags, seq, ack));
                    sightings.add(new Sighting(host, received, Direction.ARRIVING, time++, outer(sender, receiver, encap, inner)));
                    sightings.add(new Sighting(host, hop.in().orElseThrow(), Direction.ARRIVING, time++, inner));
                } else {
                    sightings.add(new Sighting(host, received, Direction.ARRIVING, time++,
                            frame(sender, receiver, datagram(hop.arrive(), flags, seq, ack))));
                }
            }
            if (hop.out().isPresent()) {
                TraceHop next = hops.get(i + 1);
                HostId to = id(next.node());
                String out = hop.out().get();
                if (hop.encap().isPresent() && encrypted(hop.encap().get())) {
                    TraceEncap encap = hop.encap().get();
                    sightings.add(new Sighting(host, out, Direction.LEAVING, time++,
                            frame(MacAddress.ZERO, MacAddress.ZERO, datagram(hop.depart().orElseThrow(), flags, seq, ack))));
                    String received = receivingInterface(plan, host, encap.underlay(), to);
                    sightings.add(new Sighting(host, encap.underlay(), Direction.LEAVING, time++,
                            wireGuard(mac(wiring, host, encap.underlay()), mac(wiring, to, received), encap, listenPort(wiring, host, encap))));
                } else if (hop.encap().isPresent()) {
                    TraceEncap encap = hop.encap().get();
                    CapturedFrame inner = frame(mac(wiring, host, out), mac(wiring, to, next.in().orElseThrow()),
                            datagram(hop.depart().orElseThrow(), flags, seq, ack));
                    sightings.add(new Sighting(host, out, Direction.LEAVING, time++, inner));
                    // All-zero FDB entries only: the kernel sends a copy to every peer, and the others
                    // drop theirs. Their copies go first here, so the one that matters must be found.
                    for (HostId peer : otherVxlanPeers(plan, host, encap, to)) {
                        String at = receivingInterface(plan, host, encap.underlay(), peer);
                        CapturedFrame copy = outer(mac(wiring, host, encap.underlay()), mac(wiring, peer, at), encap, inner);
                        sightings.add(new Sighting(host, encap.underlay(), Direction.LEAVING, time++, copy));
                        sightings.add(new Sighting(peer, at, Direction.ARRIVING, time++, copy));
                    }
                    String received = receivingInterface(plan, host, encap.underlay(), to);
                    sightings.add(new Sighting(host, encap.underlay(), Direction.LEAVING, time++,
                            outer(mac(wiring, host, encap.underlay()), mac(wiring, to, received), encap, inner)));
                } else {
                    String received = receivingInterface(plan, host, out, to);
                    sightings.add(new Sighting(host, out, Direction.LEAVING, time++,
                            frame(mac(wiring, host, out), mac(wiring, to, received), datagram(hop.depart().orElseThrow(), flags, seq, ack))));
                }
            }
        }
        return sightings;
    }

    private static boolean encrypted(TraceEncap encap) {
        return encap.encapsulation().equals(TraceEncap.WIREGUARD);
    }

    private static int listenPort(LabWiring wiring, HostId host, TraceEncap encap) {
        return wiring.wireGuardDevice(host, encap.device()).orElseThrow().listenPort();
    }

    /** A WireGuard packet: UDP from the device's listen port, its content unreadable. */
    private static CapturedFrame wireGuard(MacAddress src, MacAddress dst, TraceEncap encap, int listenPort) {
        IpDatagram udp = new IpDatagram(encap.outerSrc(), encap.outerDst(), IpDatagram.UDP, 148, listenPort, encap.port(), IpDatagram.TcpFields.NONE,
                -1, -1, "\u0004\u0000\u0000\u0000 ciphertext", Optional.empty());
        return new CapturedFrame(src, dst, udp, Optional.empty());
    }

    private static CapturedFrame outer(MacAddress src, MacAddress dst, TraceEncap encap, CapturedFrame inner) {
        IpDatagram udp = new IpDatagram(encap.outerSrc(), encap.outerDst(), IpDatagram.UDP, 100, 50000, encap.port(), IpDatagram.TcpFields.NONE, -1, -1, "",
                Optional.empty());
        return new CapturedFrame(src, dst, udp, Optional.of(new CapturedFrame.Vxlan(encap.vni(), inner)));
    }

    private static CapturedFrame frame(MacAddress src, MacAddress dst, IpDatagram datagram) {
        return new CapturedFrame(src, dst, datagram, Optional.empty());
    }

    private static IpDatagram datagram(TracePacket packet, int flags, long seq, long ack) {
        return new IpDatagram(packet.src(), packet.dst(), IpDatagram.TCP, 60, packet.sport(), packet.dport(),
                new IpDatagram.TcpFields(seq, ack, flags, PacketIdentity.ANY, PacketIdentity.ANY), -1, -1, "",
                Optional.empty());
    }

    private static MacAddress mac(LabWiring wiring, HostId host, String iface) {
        return wiring.mac(new LabWiring.Port(host, iface)).orElseThrow(() -> new AssertionError(host + " has no MAC for " + iface));
    }

    /** The hosts but {@code to} on the segment of the encapsulation's underlay with a VXLAN device on its port. */
    private static List<HostId> otherVxlanPeers(ClusterSetPlan plan, HostId from, TraceEncap encap, HostId to) {
        Interface sending = plan.host(from).orElseThrow().interfaces().stream().filter(i -> i.name().equals(encap.underlay())).findFirst().orElseThrow();
        return plan.segment(sending.segment()).orElseThrow().attachments().stream().map(Segment.Attachment::host).distinct()
                .filter(h -> !h.equals(from) && !h.equals(to))
                .filter(h -> plan.host(h).orElseThrow().submariner().vxlanDevices().stream().anyMatch(d -> d.port() == encap.port()))
                .toList();
    }

    /** The interface of {@code to} on the segment {@code from}'s interface is plugged into. */
    private static String receivingInterface(ClusterSetPlan plan, HostId from, String iface, HostId to) {
        Interface sending = plan.host(from).orElseThrow().interfaces().stream().filter(i -> i.name().equals(iface)).findFirst().orElseThrow();
        Segment segment = plan.segment(sending.segment()).orElseThrow();
        return segment.attachments().stream().filter(a -> a.host().equals(to)).findFirst().orElseThrow().interfaceName();
    }

    static HostId id(String text) {
        String[] parts = text.split("/");
        return parts.length == 2 ? HostId.node(parts[0], parts[1]) : HostId.pod(parts[0], parts[1], parts[2]);
    }
}
