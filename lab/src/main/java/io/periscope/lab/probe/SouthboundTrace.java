package io.periscope.lab.probe;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.capture.CapturedFrame;
import io.periscope.lab.capture.IpDatagram;
import io.periscope.lab.ovn.OvnTraceText;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * OVN's account of a real packet from {@code ovn-trace} against the cluster's own southbound
 * database: the logical flows {@code ovn-northd} compiled from the northbound rows and that every
 * {@code ovn-controller} of the lab turned into its OpenFlow tables. The microflow is the packet
 * as a capture saw it entering OVN (its MACs, addresses, TTL and ports) at the logical port its
 * interface is bound to.
 *
 * <p>Why {@code ovn-trace} and not {@code ovs-appctl ofproto/trace} of the chassis: with the
 * userspace datapath, OVS 3.1's {@code ofproto/trace} stops at a load balancer, whose OpenFlow
 * group selects a backend by datapath hash ({@code Datapath actions: hash(l4(0)),recirc(0xa)}, "no
 * live bucket"), and it stops at every Geneve tunnel to the next chassis. Both would leave the
 * hops after a Service's VIP unaccounted for, exactly where seed 003's paths translate.
 *
 * @param directories the run directory of each OVN cluster's daemons, by cluster
 */
public record SouthboundTrace(CommandRunner runner, Map<String, Path> directories) implements OvnAccount {

    /** More than a packet meets in one trip: a first packet is new at every conntrack it passes. */
    private static final int CONNTRACK_PASSES = 8;

    /**
     * The captures do not keep the TTL: Linux's default, so that no router of the trace sees it
     * expire (a real packet reaching OVN with a TTL that low would show as a drop in the captures).
     */
    private static final int TTL = 64;

    public SouthboundTrace {
        directories = Map.copyOf(directories);
    }

    @Override
    public Crossing cross(OvnPort entry, CapturedFrame frame, boolean reply) {
        Path directory = directories.get(entry.cluster());
        if (directory == null) {
            throw new IllegalStateException("the lab recorded no OVN run directory for cluster " + entry.cluster()
                    + "; 'lab down' then 'lab up' rebuilds it");
        }
        List<String> argv = new ArrayList<>(List.of("ovn-trace", "--db=unix:" + directory.resolve("central/sb.sock")));
        // ovn-trace's default for a conntrack lookup is an established connection, which is what an answer meets.
        if (!reply) {
            for (int i = 0; i < CONNTRACK_PASSES; i++) {
                argv.add("--ct=new");
            }
        }
        argv.add(entry.logicalSwitch());
        argv.add(microflow(entry.port(), frame));
        CommandResult result = runner.execute(new Command(argv, ""));
        if (!result.succeeded()) {
            throw new IllegalStateException("ovn-trace of cluster " + entry.cluster() + " failed for a packet entering " + entry.port() + ": "
                    + result.stderr().strip());
        }
        return new Crossing(OvnTraceText.routerVisits(result.stdout(), entry.routers()), result.stdout());
    }

    @Override
    public void forgetConnections() {
        for (Path cluster : directories.values()) {
            try (var chassis = Files.list(cluster)) {
                for (Path control : chassis.map(node -> node.resolve("ovs-vswitchd.ctl")).filter(Files::exists).sorted().toList()) {
                    CommandResult result = runner.execute(Command.of("ovs-appctl", "-t", control.toString(), "dpctl/flush-conntrack"));
                    if (!result.succeeded()) {
                        throw new IllegalStateException("ovs-appctl dpctl/flush-conntrack of " + control + " failed: " + result.stderr().strip());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list the OVN run directory " + cluster, e);
            }
        }
    }

    /** The packet's headers as {@code ovn-trace}'s microflow expression. */
    static String microflow(String inport, CapturedFrame frame) {
        IpDatagram packet = frame.datagram();
        String l4 = switch (packet.protocol()) {
            case IpDatagram.TCP -> "tcp && tcp.src == " + packet.sport() + " && tcp.dst == " + packet.dport()
                    + (packet.tcp().isSyn() ? " && tcp.flags == 0x002" : packet.tcp().isSynAck() ? " && tcp.flags == 0x012" : "");
            case IpDatagram.UDP -> "udp && udp.src == " + packet.sport() + " && udp.dst == " + packet.dport();
            case IpDatagram.ICMP -> "icmp4 && icmp4.type == " + packet.icmpType();
            default -> "ip.proto == " + packet.protocol();
        };
        return "inport == \"" + inport + "\" && eth.src == " + frame.srcMac() + " && eth.dst == " + frame.dstMac() + " && ip4.src == "
                + packet.src() + " && ip4.dst == " + packet.dst() + " && ip.ttl == " + TTL + " && " + l4;
    }
}
