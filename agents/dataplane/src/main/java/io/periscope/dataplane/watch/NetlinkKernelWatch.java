package io.periscope.dataplane.watch;

import com.sun.jna.Native;
import io.periscope.dataplane.netns.NetworkNamespaces;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalLong;

import static io.periscope.dataplane.watch.NetlinkSockets.LIBC;

/**
 * A {@link KernelWatch} over two netlink sockets of the network namespace of the thread that opens
 * it (a socket stays in the namespace it was created in, whichever thread uses it later):
 * <ul>
 * <li>an {@code NETLINK_ROUTE} socket subscribed to the link, address, route, rule, nexthop and
 *     neighbour groups, to which the kernel sends a message for every change of those, before the
 *     change's own request returns. Anything waiting on it means something changed; a full queue
 *     ({@code ENOBUFS}) means so too;</li>
 * <li>an {@code NETLINK_NETFILTER} socket that asks nf_tables for its generation number
 *     ({@code NFT_MSG_GETGEN}), which no command-line tool prints.</li>
 * </ul>
 * Neither sees ipsets or sysctls, which have no notifications; the reconciler always reads those.
 */
public final class NetlinkKernelWatch implements KernelWatch {

    /** RTNLGRP_LINK, RTNLGRP_NEIGH (bridge and VXLAN FDB entries too), IPV4_IFADDR, IPV4_ROUTE, IPV4_RULE, NEXTHOP. */
    private static final int[] ROUTING_GROUPS = {1, 3, 5, 7, 8, 32};
    private static final int NFNL_SUBSYS_NFTABLES = 10;
    private static final int NFT_MSG_NEWGEN = 15;
    private static final int NFT_MSG_GETGEN = 16;
    private static final int NFTA_GEN_ID = 1;
    private static final int NLMSG_ERROR = 2;
    private static final short NLM_F_REQUEST = 1;
    private static final int RECEIVE_BUFFER = 1 << 20;

    private final int routing;
    private final int netfilter;
    private final byte[] buffer = new byte[64 * 1024];
    private int sequence;
    private boolean closed;

    private NetlinkKernelWatch(int routing, int netfilter) {
        this.routing = routing;
        this.netfilter = netfilter;
    }

    /**
     * Opens the watch in the calling thread's network namespace.
     *
     * @throws IllegalStateException when the sockets cannot be opened (no netlink, no privilege)
     */
    public static NetlinkKernelWatch open() {
        int routing = socket(NetlinkSockets.NETLINK_ROUTE);
        try {
            check(LIBC.setsockopt(routing, NetlinkSockets.SOL_SOCKET, NetlinkSockets.SO_RCVBUF, new int[] {RECEIVE_BUFFER}, 4), "SO_RCVBUF");
            check(LIBC.bind(routing, socketAddress(), 12), "bind the route socket");
            for (int group : ROUTING_GROUPS) {
                check(LIBC.setsockopt(routing, NetlinkSockets.SOL_NETLINK, NetlinkSockets.NETLINK_ADD_MEMBERSHIP, new int[] {group}, 4),
                        "join netlink route group " + group);
            }
            int netfilter = socket(NetlinkSockets.NETLINK_NETFILTER);
            try {
                check(LIBC.bind(netfilter, socketAddress(), 12), "bind the netfilter socket");
            } catch (IllegalStateException e) {
                LIBC.close(netfilter);
                throw e;
            }
            return new NetlinkKernelWatch(routing, netfilter);
        } catch (IllegalStateException e) {
            LIBC.close(routing);
            throw e;
        }
    }

    /**
     * Opens the watch in the named network namespace ({@code /run/netns/NAME}, as {@code ip netns}
     * names them), from a short-lived thread that enters it: the calling thread stays where it is.
     *
     * @throws IllegalStateException when the namespace cannot be entered or the sockets opened
     */
    public static NetlinkKernelWatch openIn(String namespace) {
        return NetworkNamespaces.createIn(namespace, "netlink-watch", NetlinkKernelWatch::open);
    }

    @Override
    public synchronized OptionalLong netfilterGeneration() {
        if (closed) {
            return OptionalLong.empty();
        }
        int seq = ++sequence;
        ByteBuffer request = ByteBuffer.allocate(20).order(ByteOrder.nativeOrder());
        request.putInt(20).putShort((short) (NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_GETGEN)).putShort(NLM_F_REQUEST)
                .putInt(seq).putInt(0);
        request.put((byte) 0).put((byte) 0).putShort((short) 0);    // nfgenmsg: AF_UNSPEC, version 0, resource 0
        if (LIBC.send(netfilter, request.array(), 20, 0) != 20) {
            return OptionalLong.empty();
        }
        while (true) {
            long length = LIBC.recv(netfilter, buffer, buffer.length, 0);
            if (length < 0) {
                if (Native.getLastError() == NetlinkSockets.EINTR) {
                    continue;
                }
                return OptionalLong.empty();
            }
            ByteBuffer reply = ByteBuffer.wrap(buffer, 0, (int) length).order(ByteOrder.nativeOrder());
            while (reply.remaining() >= 16) {
                int start = reply.position();
                int messageLength = reply.getInt();
                int type = reply.getShort() & 0xffff;
                reply.getShort();
                int replySequence = reply.getInt();
                reply.getInt();
                if (messageLength < 16 || start + messageLength > reply.limit()) {
                    return OptionalLong.empty();
                }
                if (replySequence == seq) {
                    if (type == NLMSG_ERROR) {
                        return OptionalLong.empty();
                    }
                    if (type == (NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWGEN)) {
                        return generationId(reply, start + 20, start + messageLength);
                    }
                }
                reply.position(start + align(messageLength));
            }
        }
    }

    /** NFTA_GEN_ID among the message's attributes; netfilter attributes are big-endian. */
    private static OptionalLong generationId(ByteBuffer message, int from, int to) {
        int at = from;
        while (at + 4 <= to) {
            int length = message.getShort(at) & 0xffff;
            int type = message.getShort(at + 2) & 0x3fff;
            if (length < 4) {
                break;
            }
            if (type == NFTA_GEN_ID && length >= 8) {
                return OptionalLong.of(Integer.toUnsignedLong(message.order(ByteOrder.BIG_ENDIAN).getInt(at + 4)));
            }
            at += align(length);
        }
        return OptionalLong.empty();
    }

    @Override
    public synchronized boolean routingChanged() {
        if (closed) {
            return true;
        }
        boolean changed = false;
        while (true) {
            long length = LIBC.recv(routing, buffer, buffer.length, NetlinkSockets.MSG_DONTWAIT);
            if (length > 0) {
                changed = true;
                continue;
            }
            if (length == 0) {
                return changed;
            }
            int error = Native.getLastError();
            if (error == NetlinkSockets.EAGAIN) {
                return changed;
            }
            if (error != NetlinkSockets.EINTR) {
                // ENOBUFS: the queue overflowed and messages were lost, which only happens when things changed.
                changed = true;
                if (error != NetlinkSockets.ENOBUFS) {
                    return true;
                }
            }
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            LIBC.close(routing);
            LIBC.close(netfilter);
        }
    }

    @Override
    public String toString() {
        return "netlink kernel watch";
    }

    private static int socket(int protocol) {
        int fd = LIBC.socket(NetlinkSockets.AF_NETLINK, NetlinkSockets.SOCK_RAW | NetlinkSockets.SOCK_CLOEXEC, protocol);
        if (fd < 0) {
            throw new IllegalStateException("cannot open a netlink socket (protocol " + protocol + "): errno " + Native.getLastError());
        }
        return fd;
    }

    private static byte[] socketAddress() {
        ByteBuffer address = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
        address.putShort((short) NetlinkSockets.AF_NETLINK);
        return address.array();    // port id 0: the kernel picks one; no groups at bind time
    }

    private static void check(int result, String what) {
        if (result < 0) {
            throw new IllegalStateException("cannot " + what + ": errno " + Native.getLastError());
        }
    }

    private static int align(int length) {
        return (length + 3) & ~3;
    }
}
