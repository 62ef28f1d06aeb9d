package io.periscope.dataplane.watch;

import com.sun.jna.Library;
import com.sun.jna.Native;

/** The libc calls the watch needs: Java has no API for netlink sockets. */
interface NetlinkSockets extends Library {

    NetlinkSockets LIBC = Native.load("c", NetlinkSockets.class);

    int AF_NETLINK = 16;
    int SOCK_RAW = 3;
    int SOCK_CLOEXEC = 0x80000;
    int NETLINK_ROUTE = 0;
    int NETLINK_NETFILTER = 12;
    int SOL_SOCKET = 1;
    int SO_RCVBUF = 8;
    int SOL_NETLINK = 270;
    int NETLINK_ADD_MEMBERSHIP = 1;
    int MSG_DONTWAIT = 0x40;
    int EAGAIN = 11;
    int EINTR = 4;
    int ENOBUFS = 105;


    int socket(int domain, int type, int protocol);

    /** {@code addr} is a {@code struct sockaddr_nl}: family, padding, port id, groups (12 bytes). */
    int bind(int fd, byte[] addr, int length);

    int setsockopt(int fd, int level, int option, int[] value, int length);

    long send(int fd, byte[] buffer, long length, int flags);

    long recv(int fd, byte[] buffer, long length, int flags);

    int close(int fd);
}
