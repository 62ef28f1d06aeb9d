package io.periscope.lab.probe;

import io.periscope.lab.capture.CapturedFrame;
import io.periscope.lab.capture.Direction;
import io.periscope.lab.capture.IpDatagram;
import io.periscope.lab.capture.Sighting;
import io.periscope.lab.ovn.OvnTraceText;
import io.periscope.lab.trace.TraceEncap;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePacket;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Rebuilds the hops of one packet from where it was seen. Starting at the host that sent it, each
 * hop is the interface it left by (a VXLAN device where it was tunnelled, with the outer packet
 * seen on the underlay as the encapsulation: of the copies its all-zero FDB entries make, the one to
 * the device that keeps the frame, see {@link #keptCopy}), the host that received that frame (the other end of
 * the veth, or on a bridge the owner of the destination MAC), and the interface it came in by there
 * (the VXLAN device that decapsulated it, where it came through a tunnel). A WireGuard device's
 * outer packets are encrypted, so they are matched to the inner packet by addresses, ports and
 * time (see {@link #acrossWireGuard}); where the outer packet arrived at the peer and nothing came
 * out of the peer's device, the path ends at the peer, in by its underlay with the outer packet, as
 * the simulator ends a packet WireGuard drops on receive, and the device's counters say why
 * ({@link WireGuardReceiveDrop}). This is the hop shape
 * of the simulator's traces: at a tunnel end, the inner packet on the tunnel device.
 */
public final class HopReconstruction {

    /** A path longer than this is a loop; the kernel's TTL would end it too. */
    private static final int MAX_HOPS = 64;

    /** A WireGuard data message: its first byte, as the capture keeps the start of a UDP payload. */
    private static final char WIREGUARD_DATA = '\u0004';
    /** IPv4 and UDP headers around a WireGuard message: the device counts the message alone. */
    private static final int OUTER_HEADERS = 20 + 8;

    private final LabWiring wiring;
    private final List<Sighting> sightings;
    private final List<Sighting> udp;
    private final PacketIdentity identity;
    private final WireGuardReceipts receipts;
    private final OvnAccount ovn;

    /**
     * The packet's path as the captures show it, and where it ended in a WireGuard device that let
     * nothing out, why.
     */
    public record Followed(List<TraceHop> hops, Optional<WireGuardReceiveDrop> droppedByWireGuard) {

        public Followed {
            hops = List.copyOf(hops);
        }
    }

    /** From the captures alone: a WireGuard device that drops a packet is placed, not explained. */
    public HopReconstruction(LabWiring wiring, List<Sighting> sightings, PacketIdentity identity) {
        this(wiring, sightings, identity, WireGuardReceipts.UNREAD);
    }

    /**
     * @param sightings everything captured; those of {@code identity}, and the UDP packets a
     *                  WireGuard cable may have wrapped it in (which cannot be decrypted to tell)
     * @param receipts  what the WireGuard devices counted while the captures ran
     */
    public HopReconstruction(LabWiring wiring, List<Sighting> sightings, PacketIdentity identity, WireGuardReceipts receipts) {
        this(wiring, sightings, identity, receipts, OvnAccount.NONE);
    }

    /** @param ovn OVN's account of the packet between the interface it entered OVN by and the one it left by */
    public HopReconstruction(LabWiring wiring, List<Sighting> sightings, PacketIdentity identity, WireGuardReceipts receipts, OvnAccount ovn) {
        this.ovn = ovn;
        this.wiring = wiring;
        this.identity = identity;
        this.receipts = receipts;
        this.sightings = sightings.stream().filter(s -> identity.matches(s.frame().innermost()))
                .sorted(Comparator.comparingLong(Sighting::nanos)).toList();
        this.udp = sightings.stream().filter(s -> s.frame().vxlan().isEmpty() && s.frame().datagram().protocol() == IpDatagram.UDP)
                .sorted(Comparator.comparingLong(Sighting::nanos)).toList();
    }

    /** Whether the packet was seen at all. */
    public boolean seen() {
        return !sightings.isEmpty();
    }

    /** The first sighting of the packet leaving {@code host}, the socket's packet before any hop changed it. */
    public Optional<IpDatagram> firstLeaving(HostId host) {
        return sightings.stream().filter(s -> s.host().equals(host) && s.direction() == Direction.LEAVING && !encapsulated(s))
                .findFirst().map(s -> s.frame().datagram());
    }

    /**
     * The packet's hops from the host that generated it.
     *
     * @param generated the packet as its socket sent it (the first hop's {@code arrive})
     */
    public List<TraceHop> follow(HostId source, TracePacket generated) {
        return trace(source, generated).hops();
    }

    /**
     * The packet's hops from the host that generated it, and, where a WireGuard device it reached
     * let nothing out, why.
     *
     * @param generated the packet as its socket sent it (the first hop's {@code arrive})
     */
    public Followed trace(HostId source, TracePacket generated) {
        List<TraceHop> hops = new ArrayList<>();
        HostId host = source;
        Optional<String> in = Optional.empty();
        TracePacket arrive = generated;
        long after = Long.MIN_VALUE;
        walk:
        while (hops.size() < MAX_HOPS) {
            HostId here = host;
            long since = after;
            Optional<Sighting> leaving = first(s -> s.host().equals(here) && s.direction() == Direction.LEAVING && !encapsulated(s)
                    && s.nanos() >= since);
            if (leaving.isEmpty()) {
                hops.add(new TraceHop(host.toString(), in, Optional.empty(), arrive, Optional.empty(), Optional.empty()));
                break;
            }
            Sighting out = leaving.get();
            Sighting onTheWire = out;
            Optional<TraceEncap> encap = Optional.empty();
            if (wiring.isVxlanDevice(host, out.iface())) {
                Optional<Sighting> outer = keptCopy(out);
                if (outer.isEmpty()) {
                    hops.add(new TraceHop(host.toString(), in, Optional.of(out.iface()), arrive, Optional.of(packet(out.frame().datagram())),
                            Optional.empty()));
                    break;
                }
                onTheWire = outer.get();
                IpDatagram outerPacket = onTheWire.frame().datagram();
                encap = Optional.of(new TraceEncap(out.iface(), outerPacket.src(), outerPacket.dst(),
                        onTheWire.frame().vxlan().orElseThrow().vni(), outerPacket.dport(), onTheWire.iface()));
            }
            Optional<WireGuardDevice> wireGuard = wiring.wireGuardDevice(host, out.iface());
            if (wireGuard.isPresent()) {
                Optional<WireGuardCrossing> crossing = acrossWireGuard(out, wireGuard.get());
                if (crossing.isEmpty()) {
                    hops.add(new TraceHop(host.toString(), in, Optional.of(out.iface()), arrive, Optional.of(packet(out.frame().datagram())),
                            Optional.empty()));
                    break;
                }
                hops.add(new TraceHop(host.toString(), in, Optional.of(out.iface()), arrive, Optional.of(packet(out.frame().datagram())),
                        Optional.of(crossing.get().encap())));
                switch (crossing.get()) {
                    case WireGuardCrossing.Lost lost -> {
                        break walk;
                    }
                    case WireGuardCrossing.Refused refused -> {
                        // The receiving gateway took the outer packet in from its underlay, as the
                        // simulator's hop there shows it, and its device let nothing out.
                        Sighting at = refused.arrived();
                        hops.add(new TraceHop(at.host().toString(), Optional.of(at.iface()), Optional.empty(), packet(at.frame().datagram()),
                                Optional.empty(), Optional.empty()));
                        return new Followed(hops, Optional.of(refused.drop()));
                    }
                    case WireGuardCrossing.Through through -> {
                        Sighting inner = through.decrypted();
                        host = inner.host();
                        in = Optional.of(inner.iface());
                        arrive = packet(inner.frame().datagram());
                        after = inner.nanos();
                        continue walk;
                    }
                }
            }
            hops.add(new TraceHop(host.toString(), in, Optional.of(out.iface()), arrive, Optional.of(packet(out.frame().datagram())), encap));

            Optional<OvnPort> entry = encap.isPresent() ? Optional.empty() : wiring.ovnPort(new LabWiring.Port(host, out.iface()));
            if (entry.isPresent()) {
                Optional<Sighting> emerged = throughOvn(entry.get(), out, hops);
                if (emerged.isEmpty()) {
                    break;
                }
                host = emerged.get().host();
                in = Optional.of(emerged.get().iface());
                arrive = packet(emerged.get().frame().datagram());
                after = emerged.get().nanos();
                continue;
            }

            Optional<LabWiring.Port> receiver = wiring.receiver(new LabWiring.Port(host, onTheWire.iface()), onTheWire.frame().dstMac());
            if (receiver.isEmpty()) {
                break;
            }
            LabWiring.Port port = receiver.get();
            Sighting sent = onTheWire;
            Optional<Sighting> arrived = first(s -> s.host().equals(port.host()) && s.iface().equals(port.iface())
                    && s.direction() == Direction.ARRIVING && encapsulated(s) == encapsulated(sent) && s.nanos() >= sent.nanos());
            if (arrived.isEmpty()) {
                break;
            }
            Sighting at = arrived.get();
            host = port.host();
            if (encapsulated(at)) {
                CapturedFrame.Vxlan vxlan = at.frame().vxlan().orElseThrow();
                Optional<String> device = wiring.vxlanDevice(host, at.frame().datagram().dport());
                HostId there = host;
                Optional<Sighting> decapsulated = device.flatMap(d -> first(s -> s.host().equals(there) && s.iface().equals(d)
                        && s.direction() == Direction.ARRIVING && !encapsulated(s) && s.nanos() >= at.nanos()));
                if (decapsulated.isPresent()) {
                    in = Optional.of(decapsulated.get().iface());
                    arrive = packet(decapsulated.get().frame().datagram());
                    after = decapsulated.get().nanos();
                } else {
                    // Seen on the underlay but never out of the tunnel device: it ended there.
                    in = Optional.of(device.orElse(at.iface()));
                    arrive = packet(vxlan.inner().datagram());
                    after = at.nanos();
                }
            } else {
                in = Optional.of(at.iface());
                arrive = packet(at.frame().datagram());
                after = at.nanos();
            }
        }
        return new Followed(hops, Optional.empty());
    }

    /**
     * A packet that went into OVN by {@code into}: the logical routers OVN says it crossed, as hops,
     * and the sighting of it coming out of OVN by another of the cluster's OVN ports, if it did.
     * The captures show the packet going in and coming out; where its addresses changed in
     * between, the change is placed at the router whose own stages translate (a load balancer, a
     * NAT, or undoing one for an answer). A router OVN names but the packet never got out of
     * is where the path ends.
     */
    private Optional<Sighting> throughOvn(OvnPort entry, Sighting into, List<TraceHop> hops) {
        Optional<Sighting> emerged = first(s -> s.direction() == Direction.ARRIVING && !encapsulated(s) && s.nanos() >= into.nanos()
                && !(s.host().equals(into.host()) && s.iface().equals(into.iface()))
                && wiring.ovnPort(new LabWiring.Port(s.host(), s.iface())).filter(p -> p.cluster().equals(entry.cluster())).isPresent());
        OvnAccount.Crossing crossing = ovn.cross(entry, into.frame(), answers(into.frame().datagram()));
        TracePacket entering = packet(into.frame().datagram());
        TracePacket leaving = emerged.map(s -> packet(s.frame().datagram())).orElse(entering);
        boolean translated = false;
        for (OvnTraceText.RouterVisit visit : crossing.routers()) {
            TracePacket arrive = translated ? leaving : entering;
            translated |= visit.translates();
            TracePacket depart = translated ? leaving : entering;
            hops.add(new TraceHop(entry.cluster() + "/" + visit.router(), Optional.of(visit.in()), visit.out(), arrive,
                    visit.out().map(o -> depart), Optional.empty()));
        }
        return emerged;
    }

    /** An answer to a probe (a SYN-ACK, the echo server's datagram, an echo reply): OVN's conntrack holds its connection. */
    static boolean answers(IpDatagram datagram) {
        return switch (datagram.protocol()) {
            case IpDatagram.TCP -> datagram.tcp().isSynAck();
            case IpDatagram.UDP -> datagram.payload().startsWith(EchoServers.REPLY_MARK);
            case IpDatagram.ICMP -> datagram.icmpType() == IpDatagram.ICMP_ECHO_REPLY;
            default -> false;
        };
    }

    /**
     * The outer packet that carried the frame {@code out} shows leaving a VXLAN device. The devices have
     * all-zero FDB entries only, as upstream's, so a device that learns nothing sends a copy to every
     * destination of the list; only the device whose MAC the frame is for keeps its copy. That is the
     * copy to follow: the first whose receiver has a VXLAN device with that MAC (when the captures read
     * it), else the first whose receiver took the frame out of its device, else the first copy. A
     * learning device (seed 004's vxlan-tunnel towards several active gateways) sends the one copy, to
     * the owner, once its ARP exchange taught it where the MAC is; the same choice then finds that one.
     */
    private Optional<Sighting> keptCopy(Sighting out) {
        HostId here = out.host();
        List<Sighting> copies = sightings.stream().filter(s -> s.host().equals(here) && s.direction() == Direction.LEAVING && encapsulated(s)
                && s.nanos() >= out.nanos() && s.frame().vxlan().orElseThrow().inner().dstMac().equals(out.frame().dstMac())).toList();
        Predicate<Sighting> toTheOwner = copy -> receivingDevice(copy)
                .flatMap(wiring::mac).filter(mac -> mac.equals(out.frame().dstMac())).isPresent();
        Predicate<Sighting> decapsulated = copy -> receivingDevice(copy).flatMap(device -> first(s -> s.host().equals(device.host())
                && s.iface().equals(device.iface()) && s.direction() == Direction.ARRIVING && !encapsulated(s)
                && s.nanos() >= copy.nanos())).isPresent();
        return copies.stream().filter(toTheOwner).findFirst()
                .or(() -> copies.stream().filter(decapsulated).findFirst())
                .or(() -> copies.stream().findFirst());
    }

    /** The VXLAN device of the host an outer packet went to that listens on its port. */
    private Optional<LabWiring.Port> receivingDevice(Sighting outer) {
        return wiring.receiver(new LabWiring.Port(outer.host(), outer.iface()), outer.frame().dstMac())
                .flatMap(port -> wiring.vxlanDevice(port.host(), outer.frame().datagram().dport()).map(d -> new LabWiring.Port(port.host(), d)));
    }

    /** How a packet sent into a WireGuard device crossed the cable, with the encapsulation it left in. */
    private sealed interface WireGuardCrossing {

        TraceEncap encap();

        /** The outer packet left and was not seen arriving at a gateway with a device on its port. */
        record Lost(TraceEncap encap) implements WireGuardCrossing {
        }

        /** The outer packet arrived at the peer's underlay and nothing came out of the peer's device. */
        record Refused(TraceEncap encap, Sighting arrived, WireGuardReceiveDrop drop) implements WireGuardCrossing {
        }

        /** The packet came out of the peer's device. */
        record Through(TraceEncap encap, Sighting decrypted) implements WireGuardCrossing {
        }
    }

    /**
     * Follows a packet sent into a WireGuard device. The outer packet is encrypted, so it is told by
     * what can be read: from the device's listen port to the endpoint of the peer that cryptokey
     * routing picks for the inner destination, the first such one leaving after the inner packet
     * went in; at the peer, the inner packet is the first of the probe's coming out of its device
     * after that outer packet arrived.
     */
    private Optional<WireGuardCrossing> acrossWireGuard(Sighting out, WireGuardDevice device) {
        IpDatagram inner = out.frame().datagram();
        Optional<WireGuardPeer> peer = device.peerFor(inner.dst());
        if (peer.isEmpty()) {
            return Optional.empty();
        }
        WireGuardPeer to = peer.get();
        HostId here = out.host();
        Predicate<Sighting> toThePeer = s -> s.host().equals(here) && s.direction() == Direction.LEAVING
                && s.nanos() >= out.nanos() && s.frame().datagram().sport() == device.listenPort()
                && s.frame().datagram().dst().equals(to.endpointAddress()) && s.frame().datagram().dport() == to.endpointPort();
        // A handshake the device starts first (a rekey) leaves before the data message that carries the packet.
        Optional<Sighting> sent = udp.stream().filter(toThePeer).filter(s -> startsAsData(s.frame().datagram().payload())).findFirst()
                .or(() -> udp.stream().filter(toThePeer).findFirst());
        if (sent.isEmpty()) {
            return Optional.empty();
        }
        Sighting wire = sent.get();
        IpDatagram outer = wire.frame().datagram();
        TraceEncap encap = new TraceEncap(TraceEncap.WIREGUARD, device.name(), outer.src(), outer.dst(), 0, outer.dport(), wire.iface(),
                hidden(outer, inner));
        // Address translation on the way (a public IP) may rewrite the outer packet: the receiving
        // gateway is the one whose device listens on the destination port it arrives with.
        Optional<Sighting> received = Optional.empty();
        Optional<LabWiring.Port> receiver = wiring.receiver(new LabWiring.Port(here, wire.iface()), wire.frame().dstMac());
        if (receiver.isPresent()) {
            LabWiring.Port port = receiver.get();
            received = udp.stream().filter(s -> s.host().equals(port.host()) && s.iface().equals(port.iface())
                    && s.direction() == Direction.ARRIVING && s.nanos() >= wire.nanos() && s.frame().datagram().sport() == outer.sport()
                    && s.frame().datagram().dport() == outer.dport()).findFirst();
        }
        if (received.isEmpty()) {
            received = udp.stream().filter(s -> !s.host().equals(here) && s.direction() == Direction.ARRIVING && s.nanos() >= wire.nanos()
                    && wiring.wireGuardDeviceOn(s.host(), s.frame().datagram().dport()).isPresent()
                    && s.frame().datagram().src().equals(outer.src())).findFirst();
        }
        if (received.isEmpty()) {
            return Optional.of(new WireGuardCrossing.Lost(encap));
        }
        Sighting at = received.get();
        Optional<WireGuardDevice> remote = wiring.wireGuardDeviceOn(at.host(), at.frame().datagram().dport());
        if (remote.isEmpty()) {
            return Optional.of(new WireGuardCrossing.Lost(encap));
        }
        Optional<Sighting> decrypted = first(s -> s.host().equals(at.host()) && s.iface().equals(remote.get().name())
                && s.direction() == Direction.ARRIVING && s.nanos() >= at.nanos());
        if (decrypted.isPresent()) {
            return Optional.of(new WireGuardCrossing.Through(encap, decrypted.get()));
        }
        IpDatagram arrived = at.frame().datagram();
        String endpoint = arrived.src() + ":" + arrived.sport();
        return Optional.of(new WireGuardCrossing.Refused(encap, at, WireGuardReceiveDrop.judge(at.host(), remote.get(), endpoint, inner.src(),
                dataBytesArriving(at, arrived), receipts)));
    }

    /**
     * Whether the captured outer packet shows the inner one hidden, as far as its kept start can: a
     * WireGuard transport data message (type 4, then three zero bytes), in which neither of the inner
     * packet's addresses can be read (in clear they would sit 28 bytes in, inside what is kept).
     */
    static boolean hidden(IpDatagram outer, IpDatagram inner) {
        String payload = outer.payload();
        return startsAsData(payload) && !payload.contains(latin1(inner.src())) && !payload.contains(latin1(inner.dst()));
    }

    /** A WireGuard transport data message: type 4, then three reserved zero bytes. */
    private static boolean startsAsData(String payload) {
        return payload.length() >= 4 && payload.charAt(0) == WIREGUARD_DATA && payload.charAt(1) == 0 && payload.charAt(2) == 0
                && payload.charAt(3) == 0;
    }

    /** An address's four bytes as the capture keeps payloads, one ISO-8859-1 character a byte. */
    private static String latin1(io.periscope.model.net.Ipv4Address address) {
        return new String(new char[]{(char) address.octet(0), (char) address.octet(1), (char) address.octet(2), (char) address.octet(3)});
    }

    /**
     * The WireGuard data messages that arrived where {@code at} did from the same address and port
     * while the captures ran: what a device that decrypted them all adds to that peer's received bytes.
     */
    private long dataBytesArriving(Sighting at, IpDatagram outer) {
        return udp.stream().filter(s -> s.host().equals(at.host()) && s.iface().equals(at.iface()) && s.direction() == Direction.ARRIVING)
                .map(s -> s.frame().datagram())
                .filter(d -> d.src().equals(outer.src()) && d.sport() == outer.sport() && d.dport() == outer.dport())
                .filter(d -> !d.payload().isEmpty() && d.payload().charAt(0) == WIREGUARD_DATA)
                .mapToLong(d -> d.length() - OUTER_HEADERS).sum();
    }

    private Optional<Sighting> first(Predicate<Sighting> condition) {
        return sightings.stream().filter(condition).findFirst();
    }

    /** The probe packet seen inside a VXLAN packet (rather than itself). */
    private boolean encapsulated(Sighting sighting) {
        return sighting.frame().vxlan().isPresent();
    }

    static TracePacket packet(IpDatagram datagram) {
        Protocol protocol = switch (datagram.protocol()) {
            case IpDatagram.TCP -> Protocol.TCP;
            case IpDatagram.UDP -> Protocol.UDP;
            case IpDatagram.ICMP -> Protocol.ICMP;
            default -> throw new IllegalArgumentException("the probe sends no IP protocol " + datagram.protocol());
        };
        return TracePacket.of(datagram.src(), datagram.dst(), datagram.sport(), datagram.dport(), protocol);
    }
}
