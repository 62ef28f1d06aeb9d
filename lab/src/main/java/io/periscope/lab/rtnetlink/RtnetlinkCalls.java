package io.periscope.lab.rtnetlink;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * The libc calls an rtnetlink request makes, mapped directly ({@link Native#register}): Java has no
 * netlink sockets. {@link Native#getLastError} holds {@code errno} after each call.
 */
final class RtnetlinkCalls {

    static {
        Native.register(RtnetlinkCalls.class, NativeLibrary.getInstance("c"));
    }

    static final int AF_NETLINK = 16;
    static final int SOCK_RAW = 3;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int NETLINK_ROUTE = 0;
    static final int SOL_NETLINK = 270;
    /** The acknowledgement of a refused request echoes only the request's header, not the request. */
    static final int NETLINK_CAP_ACK = 10;
    /** The acknowledgement of a refused request carries the kernel's own words for why. */
    static final int NETLINK_EXT_ACK = 11;
    static final int EINTR = 4;

    private RtnetlinkCalls() {
    }

    static native int socket(int domain, int type, int protocol);

    static native int setsockopt(int fd, int level, int option, int[] value, int length);

    static native long send(int fd, byte[] buffer, long length, int flags);

    static native long recv(int fd, byte[] buffer, long length, int flags);

    static native int close(int fd);

    /** The index of the interface of that name in the calling thread's network namespace, 0 when there is none. */
    static native int if_nametoindex(String name);

    static native String strerror(int errno);
}
