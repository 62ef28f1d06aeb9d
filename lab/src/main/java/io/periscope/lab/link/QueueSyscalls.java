package io.periscope.lab.link;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The libc calls a delay line makes, mapped directly ({@link Native#register}): Java has no netlink
 * sockets, and a delay line makes one {@code recv} per packet, where direct mapping costs a fraction
 * of an interface proxy's call. {@link Native#getLastError} holds {@code errno} after each call.
 */
final class QueueSyscalls {

    static {
        Native.register(QueueSyscalls.class, NativeLibrary.getInstance("c"));
    }

    static final int AF_NETLINK = 16;
    static final int SOCK_RAW = 3;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int NETLINK_NETFILTER = 12;
    static final int SOL_SOCKET = 1;
    static final int SO_RCVBUF = 8;
    /** Like SO_RCVBUF, past {@code net.core.rmem_max}: needs CAP_NET_ADMIN, which the lab has. */
    static final int SO_RCVBUFFORCE = 33;
    static final int MSG_DONTWAIT = 0x40;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENOBUFS = 105;
    static final short POLLIN = 1;
    static final int EFD_CLOEXEC = 0x80000;
    static final int EFD_NONBLOCK = 0x800;
    /** {@code prctl(PR_SET_TIMERSLACK, ns)}: how late the kernel may wake this thread from a timed sleep (50 us unless set). */
    static final int PR_SET_TIMERSLACK = 29;
    static final int SCHED_FIFO = 1;

    private QueueSyscalls() {
    }

    static native int socket(int domain, int type, int protocol);

    /** {@code address} is a {@code struct sockaddr_nl}: family, padding, port id, groups (12 bytes). */
    static native int bind(int fd, byte[] address, int length);

    static native int setsockopt(int fd, int level, int option, int[] value, int length);

    static native int getsockopt(int fd, int level, int option, int[] value, int[] length);

    static native long send(int fd, Pointer buffer, long length, int flags);

    static native long recv(int fd, Pointer buffer, long length, int flags);

    /** {@code fds} holds {@code struct pollfd}s: int fd, short events, short revents (8 bytes each). */
    static native int poll(Pointer fds, long count, int timeoutMillis);

    static native int eventfd(int initial, int flags);

    static native long write(int fd, byte[] buffer, long length);

    static native long read(int fd, byte[] buffer, long length);

    static native int close(int fd);

    static native int prctl(int option, long arg2, long arg3, long arg4, long arg5);

    /** {@code sched_setscheduler(0, policy, &param)}: 0 is the calling thread; {@code param} is {@code struct sched_param} (one int). */
    static native int sched_setscheduler(int pid, int policy, int[] param);
}
