package io.periscope.lab.link;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The netfilter queue's messages byte for byte, as {@code linux/netfilter/nfnetlink_queue.h} and
 * {@code linux/netlink.h} lay them out: the netlink header and attribute headers in the machine's
 * byte order (little-endian here), the netfilter header's queue number and every netfilter payload
 * big-endian, attributes padded to 4 bytes. {@code DelayLineHoldsPacketsInTheKernel} shows that the
 * kernel takes them.
 */
class NfqueueMessagesHaveTheKernelsLayout {

    @BeforeAll
    static void littleEndian() {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the expected bytes are written for a little-endian machine");
    }

    private static ByteBuffer buffer() {
        return ByteBuffer.allocate(256).order(ByteOrder.nativeOrder());
    }

    private static String hex(ByteBuffer written) {
        return HexFormat.of().formatHex(written.array(), 0, written.position());
    }

    private static ByteBuffer bytes(String hex) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex.replace(" ", "")));
    }

    @Test
    void bindIsAConfigCommandForTheQueueAskingForAnAcknowledgement() {
        ByteBuffer out = buffer();
        NfqueueCodec.bind(out, 7, 258);
        assertThat(hex(out)).isEqualTo(String.join("",
                "1c000000", "0203", "0500", "07000000", "00000000",   // nlmsghdr: 28 bytes, (NFNL_SUBSYS_QUEUE << 8) | NFQNL_MSG_CONFIG, REQUEST|ACK, seq 7, port 0
                "00", "00", "0102",                                     // nfgenmsg: AF_UNSPEC, version 0, queue 258 big-endian
                "0800", "0100", "01", "00", "0002"));                   // NFQA_CFG_CMD: BIND, pad, pf AF_INET big-endian
    }

    @Test
    void unbindDiffersOnlyInItsCommand() {
        ByteBuffer bind = buffer();
        ByteBuffer unbind = buffer();
        NfqueueCodec.bind(bind, 1, 5);
        NfqueueCodec.unbind(unbind, 1, 5);
        assertThat(hex(unbind)).isEqualTo(hex(bind).substring(0, 48) + "02" + hex(bind).substring(50));
    }

    @Test
    void configureCarriesCopyModeMaximumLengthAndFlagsWithTheirMask() {
        ByteBuffer out = buffer();
        NfqueueCodec.configure(out, 9, 5, NfqueueCodec.CopyMode.META, 0, 10_000, NfqueueCodec.FLAG_GSO);
        assertThat(hex(out)).isEqualTo(String.join("",
                "38000000", "0203", "0500", "09000000", "00000000",
                "00", "00", "0005",
                "0900", "0200", "00000000", "01", "000000",           // NFQA_CFG_PARAMS (packed, 5 bytes): copy range 0, NFQNL_COPY_META, padding
                "0800", "0300", "00002710",                           // NFQA_CFG_QUEUE_MAXLEN 10000
                "0800", "0400", "00000005",                           // NFQA_CFG_MASK: FAIL_OPEN | GSO, the flags this message decides
                "0800", "0500", "00000004"));                         // NFQA_CFG_FLAGS: GSO only, so fail-open is off
    }

    @Test
    void aVerdictNamesThePacketAndWantsNoAcknowledgement() {
        ByteBuffer out = buffer();
        NfqueueCodec.verdict(out, 3, 5, 0x01020304L, NfqueueCodec.NF_ACCEPT);
        assertThat(out.position()).isEqualTo(NfqueueCodec.VERDICT_LENGTH);
        assertThat(hex(out)).isEqualTo(String.join("",
                "20000000", "0103", "0100", "03000000", "00000000",   // NFQNL_MSG_VERDICT, REQUEST only
                "00", "00", "0005",
                "0c00", "0200", "00000001", "01020304"));             // NFQA_VERDICT_HDR: NF_ACCEPT, packet id
    }

    @Test
    void aBatchVerdictIsTheSameWithItsOwnTypeAndAnUnsignedId() {
        ByteBuffer out = buffer();
        NfqueueCodec.verdictBatch(out, 4, 5, 0xfffffffeL, NfqueueCodec.NF_ACCEPT);
        assertThat(hex(out)).isEqualTo(String.join("",
                "20000000", "0303", "0100", "04000000", "00000000",   // NFQNL_MSG_VERDICT_BATCH
                "00", "00", "0005",
                "0c00", "0200", "00000001", "fffffffe"));
    }

    @Test
    void messagesFollowOneAnotherInOneBuffer() {
        ByteBuffer out = buffer();
        NfqueueCodec.verdict(out, 1, 5, 10, NfqueueCodec.NF_ACCEPT);
        NfqueueCodec.verdict(out, 2, 5, 11, NfqueueCodec.NF_DROP);
        assertThat(out.position()).isEqualTo(2 * NfqueueCodec.VERDICT_LENGTH);
        assertThat(out.getInt(NfqueueCodec.VERDICT_LENGTH)).isEqualTo(NfqueueCodec.VERDICT_LENGTH);
        assertThat(hex(out).substring(2 * NfqueueCodec.VERDICT_LENGTH)).endsWith("00000000" + "0000000b");
    }

    @Test
    void aBufferInNetworkOrderIsRefused() {
        assertThatThrownBy(() -> NfqueueCodec.verdict(ByteBuffer.allocate(64), 1, 5, 1, NfqueueCodec.NF_ACCEPT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Two packet messages as the kernel sends them in META mode: attributes before the packet header are skipped. */
    @Test
    void packetMessagesAreReadForTheirQueueIdProtocolAndHook() {
        String first = String.join("",
                "30000000", "0003", "0000", "00000000", "00000000",   // 48 bytes, NFQNL_MSG_PACKET
                "02", "00", "0007",                                   // AF_INET, version 0, queue 7
                "0800", "0640", "00000003",                           // NFQA_IFINDEX_OUTDEV with NLA_F_NET_BYTEORDER set: skipped
                "0b00", "0100", "fffffff0", "0800", "04", "00",      // NFQA_PACKET_HDR: id, ETH_P_IP, NF_INET_POST_ROUTING, padding
                "0800", "0600", "00000003");
        String second = String.join("",
                "20000000", "0003", "0000", "00000000", "00000000",
                "02", "00", "0007",
                "0b00", "0100", "00000001", "86dd", "00", "00");
        List<QueueEvent> events = NfqueueCodec.parse(bytes(first + second));
        assertThat(events).containsExactly(
                new QueueEvent.PacketQueued(7, 0xfffffff0L, 0x0800, 4),
                new QueueEvent.PacketQueued(7, 1, 0x86dd, 0));
    }

    @Test
    void anErrorMessageIsTheAnswerToItsSequenceWithAPositiveErrno() {
        String refused = String.join("",
                "24000000", "0200", "0001", "09000000", "00000000",   // NLMSG_ERROR, seq 9
                "ffffffff",                                           // -1: EPERM, what a bind of a queue another socket holds gets
                "1c000000", "0203", "0500", "09000000", "00000000");  // the request's own header
        String acknowledged = String.join("",
                "24000000", "0200", "0001", "0a000000", "00000000",
                "00000000",
                "1c000000", "0203", "0500", "0a000000", "00000000");
        assertThat(NfqueueCodec.parse(bytes(refused + acknowledged)))
                .containsExactly(new QueueEvent.Answer(9, 1), new QueueEvent.Answer(10, 0));
        assertThat(new QueueEvent.Answer(9, 1).failed()).isTrue();
        assertThat(new QueueEvent.Answer(10, 0).failed()).isFalse();
    }

    @Test
    void otherMessagesAreNamedByTheirType() {
        assertThat(NfqueueCodec.parse(bytes("10000000" + "0300" + "0200" + "00000000" + "00000000")))
                .containsExactly(new QueueEvent.Other(3));
    }

    @Test
    void aMessageLongerThanItsDatagramIsRefused() {
        assertThatThrownBy(() -> NfqueueCodec.parse(bytes("40000000" + "0003" + "0000" + "00000000" + "00000000" + "02000007")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64 bytes");
    }

    @Test
    void aPacketMessageWithoutItsHeaderIsRefused() {
        assertThatThrownBy(() -> NfqueueCodec.parse(bytes("1c000000" + "0003" + "0000" + "00000000" + "00000000" + "02000007"
                + "0800" + "0600" + "00000003")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NFQA_PACKET_HDR");
    }
}
