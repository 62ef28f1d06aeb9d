package io.periscope.dataplane.health;

import com.sun.jna.Library;
import com.sun.jna.Native;

/** The libc calls the ICMP prober needs: Java has no raw sockets. */
interface IcmpSockets extends Library {

    IcmpSockets LIBC = Native.load("c", IcmpSockets.class);

    int AF_INET = 2;
    int SOCK_RAW = 3;
    int SOCK_CLOEXEC = 0x80000;
    int IPPROTO_ICMP = 1;
    int MSG_DONTWAIT = 0x40;
    short POLLIN = 1;
    int EINTR = 4;

    int socket(int domain, int type, int protocol);

    /** {@code addr} is a {@code struct sockaddr_in} (16 bytes). */
    long sendto(int fd, byte[] buffer, long length, int flags, byte[] addr, int addrLength);

    long recv(int fd, byte[] buffer, long length, int flags);

    /** {@code fds} holds {@code struct pollfd}s: int fd, short events, short revents. */
    int poll(byte[] fds, long count, int timeoutMillis);

    int close(int fd);
}
