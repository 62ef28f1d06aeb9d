package io.periscope.lab.rtnetlink;

import com.sun.jna.Native;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A route netlink socket of the network namespace the calling thread stands in when it opens it
 * (a socket belongs to its creator's namespace for good), sending one request at a time and waiting
 * for the kernel's acknowledgement, as {@code ip} does.
 */
final class RtnetlinkSocket implements AutoCloseable {

    private final int fd;
    private final byte[] answer = new byte[8192];
    private int sequence;

    private RtnetlinkSocket(int fd) {
        this.fd = fd;
    }

    /** @throws RtnetlinkException when the socket cannot be opened */
    static RtnetlinkSocket open() {
        int fd = RtnetlinkCalls.socket(RtnetlinkCalls.AF_NETLINK, RtnetlinkCalls.SOCK_RAW | RtnetlinkCalls.SOCK_CLOEXEC,
                RtnetlinkCalls.NETLINK_ROUTE);
        if (fd < 0) {
            throw new RtnetlinkException("cannot open a route netlink socket: " + RtnetlinkCalls.strerror(Native.getLastError()));
        }
        // Both are optional: a kernel without them still acknowledges, only with fewer words.
        RtnetlinkCalls.setsockopt(fd, RtnetlinkCalls.SOL_NETLINK, RtnetlinkCalls.NETLINK_CAP_ACK, new int[]{1}, 4);
        RtnetlinkCalls.setsockopt(fd, RtnetlinkCalls.SOL_NETLINK, RtnetlinkCalls.NETLINK_EXT_ACK, new int[]{1}, 4);
        return new RtnetlinkSocket(fd);
    }

    /** The sequence number for the next request. */
    int nextSequence() {
        return ++sequence;
    }

    /**
     * Sends one request and waits for its acknowledgement.
     *
     * @param what the request in {@code ip}'s words, for the error
     * @throws RtnetlinkException when the kernel refuses it, with the kernel's reason
     */
    void request(byte[] message, String what) {
        int sent = ByteBuffer.wrap(message).order(ByteOrder.nativeOrder()).getInt(8);
        long length;
        do {
            length = RtnetlinkCalls.send(fd, message, message.length, 0);
        } while (length < 0 && Native.getLastError() == RtnetlinkCalls.EINTR);
        if (length != message.length) {
            throw new RtnetlinkException(what + ": cannot send to the kernel: " + RtnetlinkCalls.strerror(Native.getLastError()));
        }
        while (true) {
            long received;
            do {
                received = RtnetlinkCalls.recv(fd, answer, answer.length, 0);
            } while (received < 0 && Native.getLastError() == RtnetlinkCalls.EINTR);
            if (received < 0) {
                throw new RtnetlinkException(what + ": no answer from the kernel: " + RtnetlinkCalls.strerror(Native.getLastError()));
            }
            ByteBuffer buffer = ByteBuffer.wrap(answer, 0, (int) received).order(ByteOrder.nativeOrder());
            for (int at = 0; at + RtnetlinkRequests.HEADER <= received; ) {
                int size = buffer.getInt(at);
                short type = buffer.getShort(at + 4);
                short flags = buffer.getShort(at + 6);
                int seq = buffer.getInt(at + 8);
                if (size < RtnetlinkRequests.HEADER || at + size > received) {
                    throw new RtnetlinkException(what + ": the kernel's answer is cut short");
                }
                if (type == RtnetlinkRequests.NLMSG_ERROR && seq == sent) {
                    int error = buffer.getInt(at + RtnetlinkRequests.HEADER);
                    if (error == 0) {
                        return;
                    }
                    throw new RtnetlinkException("RTNETLINK answers: " + RtnetlinkCalls.strerror(-error) + reason(buffer, at, size, flags)
                            + " (" + what + ")");
                }
                at += (size + 3) & ~3;
            }
        }
    }

    /** The kernel's own words after a refusal, when it gave any (extended acknowledgements). */
    private static String reason(ByteBuffer buffer, int at, int size, short flags) {
        if ((flags & RtnetlinkRequests.NLM_F_ACK_TLVS) == 0) {
            return "";
        }
        // The error, then the request's header alone (NETLINK_CAP_ACK), then the attributes.
        for (int attribute = at + RtnetlinkRequests.HEADER + 4 + RtnetlinkRequests.HEADER; attribute + 4 <= at + size; ) {
            int length = Short.toUnsignedInt(buffer.getShort(attribute));
            short type = buffer.getShort(attribute + 2);
            if (length < 4 || attribute + length > at + size) {
                return "";
            }
            if (type == RtnetlinkRequests.NLMSGERR_ATTR_MSG) {
                byte[] text = new byte[length - 4];
                buffer.get(attribute + 4, text);
                String words = new String(text, StandardCharsets.UTF_8).replace("\0", "").strip();
                return words.isEmpty() ? "" : ": " + words;
            }
            attribute += (length + 3) & ~3;
        }
        return "";
    }

    @Override
    public void close() {
        RtnetlinkCalls.close(fd);
    }
}
