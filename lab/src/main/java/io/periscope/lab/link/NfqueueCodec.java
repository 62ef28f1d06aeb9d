package io.periscope.lab.link;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The netfilter queue's netlink messages as bytes ({@code linux/netfilter/nfnetlink_queue.h}), with
 * no socket: what {@link DelayLine} sends and reads, built and parsed here so that the layout can
 * be checked byte by byte without a kernel.
 *
 * <p>Every message is a netlink header ({@code struct nlmsghdr}: length, type, flags, sequence,
 * port id, in the machine's byte order), the netfilter header ({@code struct nfgenmsg}: family,
 * version 0, the queue number big-endian) and attributes ({@code struct nlattr}: length and type in
 * the machine's order, padded to 4 bytes), whose netfilter payloads are big-endian. The message type
 * is the subsystem ({@code NFNL_SUBSYS_QUEUE}, 3) shifted left 8 bits or'ed with the queue's own type.
 *
 * <p>Writers put one message at the buffer's position and advance it, so several messages (a round
 * of verdicts) go to the kernel in one {@code send}; the buffer must be in the machine's byte order.
 */
public final class NfqueueCodec {

    static final int NLMSG_HEADER = 16;
    static final int NFGENMSG = 4;
    static final int NLMSG_ERROR = 2;
    static final short NLM_F_REQUEST = 1;
    static final short NLM_F_ACK = 4;

    static final int NFNL_SUBSYS_QUEUE = 3;
    static final int NFQNL_MSG_PACKET = 0;
    static final int NFQNL_MSG_VERDICT = 1;
    static final int NFQNL_MSG_CONFIG = 2;
    static final int NFQNL_MSG_VERDICT_BATCH = 3;

    static final int NFQA_PACKET_HDR = 1;
    static final int NFQA_VERDICT_HDR = 2;

    static final int NFQA_CFG_CMD = 1;
    static final int NFQA_CFG_PARAMS = 2;
    static final int NFQA_CFG_QUEUE_MAXLEN = 3;
    static final int NFQA_CFG_MASK = 4;
    static final int NFQA_CFG_FLAGS = 5;

    static final int NFQNL_CFG_CMD_BIND = 1;
    static final int NFQNL_CFG_CMD_UNBIND = 2;

    /** {@code NFQA_CFG_F_FAIL_OPEN}: a full queue accepts packets unqueued instead of dropping them. */
    public static final int FLAG_FAIL_OPEN = 1;
    /** {@code NFQA_CFG_F_GSO}: a GSO packet is queued whole instead of segmented in the kernel first. */
    public static final int FLAG_GSO = 1 << 2;

    /** {@code NF_DROP} and {@code NF_ACCEPT}, the verdicts. */
    public static final int NF_DROP = 0;
    public static final int NF_ACCEPT = 1;

    static final int AF_INET = 2;
    /** Attribute types carry two flag bits above these (nested, network byte order). */
    private static final int ATTRIBUTE_TYPE = 0x3fff;
    private static final boolean BIG_ENDIAN_MACHINE = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

    /** {@code enum nfqnl_config_mode}: how much of each packet the kernel copies to the socket. */
    public enum CopyMode {
        NONE(0), META(1), PACKET(2);

        final int code;

        CopyMode(int code) {
            this.code = code;
        }
    }

    private NfqueueCodec() {
    }

    /** {@code NFQNL_CFG_CMD_BIND}: this socket serves queue {@code queue} from now on (the kernel refuses with EPERM when another socket does). */
    public static void bind(ByteBuffer out, int sequence, int queue) {
        command(out, sequence, queue, NFQNL_CFG_CMD_BIND);
    }

    /** {@code NFQNL_CFG_CMD_UNBIND}: the queue is gone; the kernel drops the packets it still holds for it. */
    public static void unbind(ByteBuffer out, int sequence, int queue) {
        command(out, sequence, queue, NFQNL_CFG_CMD_UNBIND);
    }

    private static void command(ByteBuffer out, int sequence, int queue, int command) {
        int start = header(out, NFQNL_MSG_CONFIG, NLM_F_REQUEST | NLM_F_ACK, sequence, queue);
        // struct nfqnl_msg_config_cmd { u8 command; u8 pad; be16 pf; } (the kernel ignores pf since 3.8)
        attribute(out, NFQA_CFG_CMD, 4);
        out.put((byte) command).put((byte) 0).putShort(bigEndian((short) AF_INET));
        finish(out, start);
    }

    /**
     * The queue's settings in one {@code NFQNL_MSG_CONFIG}: {@code NFQA_CFG_PARAMS} (copy range and
     * mode), {@code NFQA_CFG_QUEUE_MAXLEN}, and {@code NFQA_CFG_MASK}/{@code NFQA_CFG_FLAGS} (the
     * mask says which flags the message sets: all of those {@code flags} may hold).
     */
    public static void configure(ByteBuffer out, int sequence, int queue, CopyMode mode, int copyRange, int maxLength, int flags) {
        int start = header(out, NFQNL_MSG_CONFIG, NLM_F_REQUEST | NLM_F_ACK, sequence, queue);
        // struct nfqnl_msg_config_params { be32 copy_range; u8 copy_mode; } __packed: 5 bytes, padded to 8
        attribute(out, NFQA_CFG_PARAMS, 5);
        out.putInt(bigEndian(copyRange)).put((byte) mode.code);
        pad(out);
        attribute(out, NFQA_CFG_QUEUE_MAXLEN, 4);
        out.putInt(bigEndian(maxLength));
        attribute(out, NFQA_CFG_MASK, 4);
        out.putInt(bigEndian(FLAG_FAIL_OPEN | FLAG_GSO));
        attribute(out, NFQA_CFG_FLAGS, 4);
        out.putInt(bigEndian(flags));
        finish(out, start);
    }

    /** {@code NFQNL_MSG_VERDICT}: {@code verdict} for packet {@code packetId} alone. No acknowledgement asked; the kernel answers only a failure. */
    public static void verdict(ByteBuffer out, int sequence, int queue, long packetId, int verdict) {
        verdictMessage(out, NFQNL_MSG_VERDICT, sequence, queue, packetId, verdict);
    }

    /**
     * {@code NFQNL_MSG_VERDICT_BATCH}: {@code verdict} for every packet the queue holds with an id up
     * to {@code maxPacketId} (in the kernel's wrap-around order), which is one message for a run of
     * packets released together in the order they came.
     */
    public static void verdictBatch(ByteBuffer out, int sequence, int queue, long maxPacketId, int verdict) {
        verdictMessage(out, NFQNL_MSG_VERDICT_BATCH, sequence, queue, maxPacketId, verdict);
    }

    private static void verdictMessage(ByteBuffer out, int type, int sequence, int queue, long packetId, int verdict) {
        int start = header(out, type, NLM_F_REQUEST, sequence, queue);
        // struct nfqnl_msg_verdict_hdr { be32 verdict; be32 id; }
        attribute(out, NFQA_VERDICT_HDR, 8);
        out.putInt(bigEndian(verdict)).putInt(bigEndian((int) packetId));
        finish(out, start);
    }

    /** The bytes one verdict message takes: header 16, nfgenmsg 4, attribute 4 + 8. */
    public static final int VERDICT_LENGTH = NLMSG_HEADER + NFGENMSG + 12;

    /** Every message in {@code in} (from its position to its limit, one datagram the kernel sent), in order. */
    public static List<QueueEvent> parse(ByteBuffer in) {
        List<QueueEvent> events = new ArrayList<>();
        parse(in, events::add);
        return events;
    }

    /**
     * Reads every message in {@code in} and hands each to {@code sink}.
     *
     * @throws IllegalArgumentException when a length does not fit the datagram (a message cut short)
     */
    public static void parse(ByteBuffer in, Consumer<QueueEvent> sink) {
        ByteBuffer data = in.duplicate().order(ByteOrder.nativeOrder());
        int at = data.position();
        int end = data.limit();
        while (end - at >= NLMSG_HEADER) {
            int length = data.getInt(at);
            int type = data.getShort(at + 4) & 0xffff;
            int sequence = data.getInt(at + 8);
            if (length < NLMSG_HEADER || length > end - at) {
                throw new IllegalArgumentException("netlink message of " + length + " bytes at offset " + at + " of a "
                        + (end - in.position()) + "-byte datagram");
            }
            if (type == NLMSG_ERROR) {
                // struct nlmsgerr { int error; struct nlmsghdr msg; ... }: a negative errno, 0 for an acknowledgement
                if (length < NLMSG_HEADER + 4) {
                    throw new IllegalArgumentException("netlink error message of " + length + " bytes");
                }
                sink.accept(new QueueEvent.Answer(sequence, -data.getInt(at + NLMSG_HEADER)));
            } else if (type == (NFNL_SUBSYS_QUEUE << 8 | NFQNL_MSG_PACKET) && length >= NLMSG_HEADER + NFGENMSG) {
                sink.accept(packet(data, at, length));
            } else {
                sink.accept(new QueueEvent.Other(type));
            }
            at += align(length);
        }
    }

    private static QueueEvent packet(ByteBuffer data, int at, int length) {
        int queue = bigEndian(data.getShort(at + NLMSG_HEADER + 2)) & 0xffff;
        int attributes = at + NLMSG_HEADER + NFGENMSG;
        int end = at + length;
        while (end - attributes >= 4) {
            int attributeLength = data.getShort(attributes) & 0xffff;
            int type = data.getShort(attributes + 2) & ATTRIBUTE_TYPE;
            if (attributeLength < 4 || attributeLength > end - attributes) {
                throw new IllegalArgumentException("attribute of " + attributeLength + " bytes in a " + length + "-byte packet message");
            }
            if (type == NFQA_PACKET_HDR && attributeLength >= 4 + 7) {
                // struct nfqnl_msg_packet_hdr { be32 packet_id; be16 hw_protocol; u8 hook; } __packed
                long id = Integer.toUnsignedLong(bigEndian(data.getInt(attributes + 4)));
                int protocol = bigEndian(data.getShort(attributes + 8)) & 0xffff;
                int hook = data.get(attributes + 10) & 0xff;
                return new QueueEvent.PacketQueued(queue, id, protocol, hook);
            }
            attributes += align(attributeLength);
        }
        throw new IllegalArgumentException("packet message of queue " + queue + " without NFQA_PACKET_HDR");
    }

    private static int header(ByteBuffer out, int type, int flags, int sequence, int queue) {
        if (out.order() != ByteOrder.nativeOrder()) {
            throw new IllegalArgumentException("netlink buffers are in the machine's byte order");
        }
        int start = out.position();
        if ((start & 3) != 0) {
            throw new IllegalArgumentException("netlink messages start at 4-byte boundaries, not at " + start);
        }
        out.putInt(0)                                             // length, set by finish
                .putShort((short) (NFNL_SUBSYS_QUEUE << 8 | type))
                .putShort((short) flags)
                .putInt(sequence)
                .putInt(0);                                       // port id 0: to the kernel
        out.put((byte) 0)                                         // nfgen_family AF_UNSPEC: a queue is not per family
                .put((byte) 0)                                    // NFNETLINK_V0
                .putShort(bigEndian((short) queue));
        return start;
    }

    private static void attribute(ByteBuffer out, int type, int payload) {
        out.putShort((short) (4 + payload)).putShort((short) type);
    }

    private static void finish(ByteBuffer out, int start) {
        pad(out);
        out.putInt(start, out.position() - start);
    }

    private static void pad(ByteBuffer out) {
        while ((out.position() & 3) != 0) {
            out.put((byte) 0);
        }
    }

    static int align(int length) {
        return (length + 3) & ~3;
    }

    private static int bigEndian(int value) {
        return BIG_ENDIAN_MACHINE ? value : Integer.reverseBytes(value);
    }

    private static short bigEndian(short value) {
        return BIG_ENDIAN_MACHINE ? value : Short.reverseBytes(value);
    }
}
