package io.periscope.lab.link;

import com.sun.jna.Memory;
import com.sun.jna.Native;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * A {@code NETLINK_NETFILTER} socket bound to one netfilter queue, with an {@code eventfd} beside it
 * that another thread writes to wake a {@link #poll} (closing a socket does not wake a thread that
 * waits on it). It belongs to the network namespace of the thread that opened it, whichever thread
 * uses it later. Sending and receiving may happen on two threads at once (each has its own buffer);
 * everything else is the owning thread's.
 */
final class NfqueueSocket implements AutoCloseable {

    /** How long {@link #request} waits for the kernel's answer before it gives up. */
    private static final int ANSWER_MILLIS = 2000;

    private final int fd;
    private final int wake;
    private final int queue;
    private final Memory receive = new Memory(64 * 1024);
    private final ByteBuffer received = receive.getByteBuffer(0, receive.size()).order(ByteOrder.nativeOrder());
    private final Memory request = new Memory(256);
    private final ByteBuffer requestBytes = request.getByteBuffer(0, request.size()).order(ByteOrder.nativeOrder());
    private final Memory pollFds = new Memory(16);
    private int sequence;
    private boolean closed;

    private NfqueueSocket(int fd, int wake, int queue) {
        this.fd = fd;
        this.wake = wake;
        this.queue = queue;
    }

    /**
     * Opens a socket in the calling thread's network namespace with a receive buffer of
     * {@code receiveBuffer} bytes and binds it to {@code queue}.
     *
     * @throws DelayLineException when the socket cannot be opened or the kernel refuses the queue
     *                            (EPERM: another socket serves it, or no CAP_NET_ADMIN)
     */
    static NfqueueSocket open(int queue, int receiveBuffer) {
        int fd = QueueSyscalls.socket(QueueSyscalls.AF_NETLINK, QueueSyscalls.SOCK_RAW | QueueSyscalls.SOCK_CLOEXEC,
                QueueSyscalls.NETLINK_NETFILTER);
        if (fd < 0) {
            throw new DelayLineException("cannot open a netfilter netlink socket: errno " + Native.getLastError());
        }
        int wake = QueueSyscalls.eventfd(0, QueueSyscalls.EFD_CLOEXEC | QueueSyscalls.EFD_NONBLOCK);
        if (wake < 0) {
            int errno = Native.getLastError();
            QueueSyscalls.close(fd);
            throw new DelayLineException("cannot open an eventfd: errno " + errno);
        }
        NfqueueSocket socket = new NfqueueSocket(fd, wake, queue);
        try {
            socket.check(QueueSyscalls.setsockopt(fd, QueueSyscalls.SOL_SOCKET, QueueSyscalls.SO_RCVBUFFORCE, new int[] {receiveBuffer}, 4),
                    "set the receive buffer to " + receiveBuffer + " bytes (SO_RCVBUFFORCE)");
            byte[] address = new byte[12];    // struct sockaddr_nl: AF_NETLINK, port id 0 (the kernel picks one), no groups
            ByteBuffer.wrap(address).order(ByteOrder.nativeOrder()).putShort((short) QueueSyscalls.AF_NETLINK);
            socket.check(QueueSyscalls.bind(fd, address, address.length), "bind the netlink socket");
            return socket;
        } catch (DelayLineException e) {
            socket.close();
            throw e;
        }
    }

    int queue() {
        return queue;
    }

    /** The receive buffer the kernel granted (it reports twice what was asked, its bookkeeping included). */
    int receiveBuffer() {
        int[] value = new int[1];
        int[] length = {4};
        check(QueueSyscalls.getsockopt(fd, QueueSyscalls.SOL_SOCKET, QueueSyscalls.SO_RCVBUF, value, length), "read SO_RCVBUF");
        return value[0];
    }

    /**
     * Sends one configuration message that {@code writer} puts in the request buffer under the
     * sequence number it is given, and waits for the kernel's answer. Packets that arrive meanwhile
     * go to {@code meanwhile}.
     *
     * @throws DelayLineException when the kernel answers with an error, or not within 2 s
     */
    void request(String what, SequenceWriter writer, Consumer<QueueEvent> meanwhile) {
        int seq = ++sequence;
        requestBytes.clear();
        writer.write(requestBytes, seq);
        if (send(request, requestBytes.position()) < 0) {
            throw new DelayLineException("cannot " + what + " (queue " + queue + "): send failed, errno " + Native.getLastError());
        }
        long deadline = System.nanoTime() + ANSWER_MILLIS * 1_000_000L;
        int[] error = {-1};
        while (error[0] < 0) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new DelayLineException("cannot " + what + " (queue " + queue + "): no answer from the kernel within " + ANSWER_MILLIS + " ms");
            }
            if ((poll((int) left) & READABLE) == 0) {
                continue;
            }
            int length = receive();
            if (length < 0) {
                continue;    // ENOBUFS: packets were lost, the answer may still come
            }
            NfqueueCodec.parse(received.limit(length).position(0), event -> {
                if (event instanceof QueueEvent.Answer answer && answer.sequence() == seq) {
                    error[0] = answer.error();
                } else {
                    meanwhile.accept(event);
                }
            });
        }
        if (error[0] != 0) {
            throw new DelayLineException("cannot " + what + " (queue " + queue + "): the kernel answered errno " + error[0]
                    + (error[0] == 1 ? " (EPERM: another socket serves this queue, or this process lacks CAP_NET_ADMIN)" : ""));
        }
    }

    /** Writes one message with the given sequence number at the buffer's position. */
    @FunctionalInterface
    interface SequenceWriter {
        void write(ByteBuffer out, int sequence);
    }

    static final int READABLE = 1;
    static final int WOKEN = 2;

    /** Waits up to {@code timeoutMillis} for a message or a {@link #wake}: {@link #READABLE}, {@link #WOKEN}, both or neither. */
    int poll(int timeoutMillis) {
        pollFds.setInt(0, fd);
        pollFds.setShort(4, QueueSyscalls.POLLIN);
        pollFds.setShort(6, (short) 0);
        pollFds.setInt(8, wake);
        pollFds.setShort(12, QueueSyscalls.POLLIN);
        pollFds.setShort(14, (short) 0);
        int ready = QueueSyscalls.poll(pollFds, 2, timeoutMillis);
        if (ready <= 0) {
            return 0;
        }
        // POLLERR (an ENOBUFS waiting) counts as readable: the next recv reports it.
        return (pollFds.getShort(6) != 0 ? READABLE : 0) | (pollFds.getShort(14) != 0 ? WOKEN : 0);
    }

    /** Wakes a thread waiting in {@link #poll}, from any thread; the wake stays until {@link #poll} sees it. */
    void wake() {
        QueueSyscalls.write(wake, new byte[] {1, 0, 0, 0, 0, 0, 0, 0}, 8);
    }

    /**
     * Reads one datagram without waiting: its length, with {@link #received} holding its bytes; or
     * {@code -errno} ({@code -EAGAIN} when nothing waits, {@code -ENOBUFS} when the kernel could not
     * deliver messages because the receive buffer was full: those packets are lost).
     */
    int receive() {
        while (true) {
            long length = QueueSyscalls.recv(fd, receive, receive.size(), QueueSyscalls.MSG_DONTWAIT);
            if (length >= 0) {
                return (int) length;
            }
            int errno = Native.getLastError();
            if (errno != QueueSyscalls.EINTR) {
                return -errno;
            }
        }
    }

    /** The bytes of the last datagram {@link #receive} read, from position 0 to its length. */
    ByteBuffer received(int length) {
        return received.limit(length).position(0);
    }

    /** Sends {@code length} bytes of {@code buffer} (one or more messages); returns what send(2) returned. */
    long send(Memory buffer, int length) {
        while (true) {
            long sent = QueueSyscalls.send(fd, buffer, length, 0);
            if (sent >= 0 || Native.getLastError() != QueueSyscalls.EINTR) {
                return sent;
            }
        }
    }

    private void check(int result, String what) {
        if (result < 0) {
            throw new DelayLineException("cannot " + what + ": errno " + Native.getLastError());
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            QueueSyscalls.close(fd);
            QueueSyscalls.close(wake);
        }
    }
}
