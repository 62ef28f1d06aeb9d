package io.periscope.lab.rtnetlink;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import io.periscope.plan.routing.RouteType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalInt;

/**
 * The rtnetlink requests the lab sends to set up a pod's namespace, as bytes, with the fields
 * {@code ip} itself fills in for the same command (iproute2's {@code ip link set}, {@code ip addr add}
 * and {@code ip route append}): the kernel state they leave must be the one {@code ip -batch} leaves,
 * which {@code PodsSetUpOverNetlinkMatchIpBatch} compares in real namespaces. Headers are in the
 * machine's byte order, addresses in the network's.
 */
final class RtnetlinkRequests {

    static final int HEADER = 16;
    static final short NLMSG_ERROR = 2;
    static final short RTM_NEWLINK = 16;
    static final short RTM_NEWADDR = 20;
    static final short RTM_NEWROUTE = 24;
    static final short NLM_F_REQUEST = 0x1;
    static final short NLM_F_ACK = 0x4;
    /** In an acknowledgement: attributes (the kernel's message) follow the echoed header. */
    static final short NLM_F_ACK_TLVS = 0x200;
    static final short NLM_F_EXCL = 0x200;
    static final short NLM_F_CREATE = 0x400;
    static final short NLM_F_APPEND = 0x800;
    static final short NLMSGERR_ATTR_MSG = 1;

    private static final byte AF_UNSPEC = 0;
    private static final byte AF_INET = 2;
    private static final int IFF_UP = 0x1;
    private static final short IFLA_MTU = 4;
    private static final short IFA_ADDRESS = 1;
    private static final short IFA_LOCAL = 2;
    private static final short RTA_DST = 1;
    private static final short RTA_OIF = 4;
    private static final short RTA_GATEWAY = 5;
    private static final short RTA_PRIORITY = 6;
    private static final short RTA_PREFSRC = 7;
    private static final short RTA_TABLE = 15;
    private static final byte RT_SCOPE_UNIVERSE = 0;
    private static final byte RT_SCOPE_LINK = (byte) 253;
    private static final byte RT_SCOPE_HOST = (byte) 254;
    private static final byte RT_TABLE_UNSPEC = 0;
    private static final int RTNH_F_ONLINK = 0x4;

    private RtnetlinkRequests() {
    }

    /** {@code ip link set DEV [mtu N] up}: the interface's up flag, and its MTU when {@code mtu} is given. */
    static byte[] linkUp(int sequence, int index, OptionalInt mtu) {
        Message message = new Message(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, sequence);
        message.buffer.put(AF_UNSPEC).put((byte) 0).putShort((short) 0).putInt(index).putInt(IFF_UP).putInt(IFF_UP);
        mtu.ifPresent(value -> message.attribute(IFLA_MTU, value));
        return message.bytes();
    }

    /**
     * {@code ip addr add A/32 dev DEV}: the local and the peer address both {@code A}, as {@code ip}
     * gives them without a peer; scope host for a loopback address, global for any other.
     */
    static byte[] addressAdd(int sequence, int index, Ipv4Address address) {
        Message message = new Message(RTM_NEWADDR, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, sequence);
        byte scope = address.octet(0) == 127 ? RT_SCOPE_HOST : RT_SCOPE_UNIVERSE;
        message.buffer.put(AF_INET).put((byte) 32).put((byte) 0).put(scope).putInt(index);
        message.address(IFA_LOCAL, address);
        message.address(IFA_ADDRESS, address);
        return message.bytes();
    }

    /**
     * {@code ip route append ...} of a route with at most one nexthop and no nexthop object, which
     * {@link #writable} tells apart: a unicast route without a gateway gets scope link, as {@code ip}
     * gives it; a table above 255 goes in an attribute.
     *
     * @param device the nexthop's interface index, ignored for a route without a nexthop
     */
    static byte[] routeAppend(int sequence, Route route, int device) {
        if (!writable(route)) {
            throw new IllegalArgumentException("route " + route + " has a nexthop object or several nexthops: ip -batch writes it");
        }
        Message message = new Message(RTM_NEWROUTE, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_APPEND, sequence);
        Nexthop nexthop = route.nexthops().isEmpty() ? null : route.nexthops().getFirst();
        boolean gateway = nexthop != null && nexthop.via().isPresent();
        byte scope = switch (route.type()) {
            case UNICAST -> gateway ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
            case BLACKHOLE, UNREACHABLE -> RT_SCOPE_UNIVERSE;
        };
        byte type = switch (route.type()) {
            case UNICAST -> 1;
            case BLACKHOLE -> 6;
            case UNREACHABLE -> 7;
        };
        boolean mainRange = route.table() < 256;
        message.buffer.put(AF_INET).put((byte) route.destination().length()).put((byte) 0).put((byte) 0)
                .put(mainRange ? (byte) route.table() : RT_TABLE_UNSPEC).put(protocol(route.protocol())).put(scope).put(type)
                .putInt(nexthop != null && nexthop.onlink() ? RTNH_F_ONLINK : 0);
        if (!mainRange) {
            message.attribute(RTA_TABLE, route.table());
        }
        message.address(RTA_DST, route.destination().network());
        message.attribute(RTA_PRIORITY, route.metric());
        route.source().ifPresent(src -> message.address(RTA_PREFSRC, src));
        if (nexthop != null && route.type() == RouteType.UNICAST) {
            nexthop.via().ifPresent(via -> message.address(RTA_GATEWAY, via));
            message.attribute(RTA_OIF, device);
        }
        return message.bytes();
    }

    /** Whether {@link #routeAppend} writes the route: no nexthop object and at most one nexthop. */
    static boolean writable(Route route) {
        return route.nexthopId().isEmpty() && route.nexthops().size() <= 1;
    }

    private static byte protocol(RouteProtocol protocol) {
        return switch (protocol) {
            case KERNEL -> 2;
            case BOOT -> 3;
            case STATIC -> 4;
        };
    }

    /** A request being written: the header's length is filled in by {@link #bytes}. */
    private static final class Message {

        private final ByteBuffer buffer = ByteBuffer.allocate(256).order(ByteOrder.nativeOrder());

        Message(short type, int flags, int sequence) {
            buffer.putInt(0).putShort(type).putShort((short) flags).putInt(sequence).putInt(0);
        }

        void attribute(short type, int value) {
            buffer.putShort((short) 8).putShort(type).putInt(value);
        }

        void address(short type, Ipv4Address address) {
            buffer.putShort((short) 8).putShort(type).order(ByteOrder.BIG_ENDIAN).putInt(address.bits()).order(ByteOrder.nativeOrder());
        }

        byte[] bytes() {
            int length = buffer.position();
            buffer.putInt(0, length);
            byte[] bytes = new byte[length];
            buffer.get(0, bytes);
            return bytes;
        }
    }
}
