package io.periscope.dns;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

import static io.periscope.dns.WireClient.query;
import static org.assertj.core.api.Assertions.assertThat;

class MalformedQueriesGetFormerrOrAreDropped {

    @RegisterExtension
    static final ServedTopology served = new ServedTopology();

    private static byte[] header(int id, int flags, int qd, int an, int ns, int ar, int... rest) {
        byte[] bytes = new byte[rest.length];
        for (int i = 0; i < rest.length; i++) {
            bytes[i] = (byte) rest[i];
        }
        return header(id, flags, qd, an, ns, ar, bytes);
    }

    private static byte[] header(int id, int flags, int qd, int an, int ns, int ar, byte[] rest) {
        ByteBuffer b = ByteBuffer.allocate(12 + rest.length);
        b.putShort((short) id).putShort((short) flags).putShort((short) qd).putShort((short) an).putShort((short) ns).putShort((short) ar);
        return b.put(rest).array();
    }

    private WireClient.Response formerr(byte[] packet) throws Exception {
        WireClient.Response r = served.client.udp(packet);
        assertThat(r.rcode()).as("FORMERR").isEqualTo(1);
        return r;
    }

    @Test
    void aPacketShorterThanAHeaderIsDropped() throws Exception {
        assertThat(served.client.udpRaw(new byte[] {0x12, 0x34, 0x01, 0x00, 0x00})).isEmpty();
    }

    @Test
    void aQuestionCutShortGetsFormerrWithTheQuerysId() throws Exception {
        byte[] whole = query(0x2222, "web.default.svc.clusterset.local", WireClient.A, Optional.empty());
        assertThat(formerr(Arrays.copyOf(whole, 20)).id()).isEqualTo(0x2222);
        assertThat(formerr(header(0x3333, 0x0100, 1, 0, 0, 0)).id()).isEqualTo(0x3333);
    }

    @Test
    void aCompressionLoopAndALabelLongerThanThePacketGetFormerr() throws Exception {
        // The question's name points at itself (offset 12).
        formerr(header(0x4444, 0x0100, 1, 0, 0, 0, 0xc0, 0x0c, 0, 1, 0, 1));
        // A label of 63 bytes in a packet that ends after 3.
        formerr(header(0x5555, 0x0100, 1, 0, 0, 0, 63, 'a', 'b', 'c'));
    }

    @Test
    void aLabelBeyond63OctetsAndANameBeyond255GetFormerr() throws Exception {
        // The length byte 64 is a reserved label type on the wire, which netty reads as a length.
        formerr(query(0x4455, "a".repeat(64) + ".default.svc.clusterset.local", WireClient.A, Optional.empty()));
        String longName = String.join(".", java.util.Collections.nCopies(4, "b".repeat(60))) + ".svc.clusterset.local";
        formerr(query(0x4456, longName, WireClient.A, Optional.empty()));
        // Right at the limits it is a name like any other: not in the zone's services, so NXDOMAIN.
        assertThat(served.client.udp(query(0x4457, "a".repeat(63) + ".default.svc.clusterset.local", WireClient.A, Optional.empty()))
                .rcode()).isEqualTo(3);
    }

    @Test
    void twoQuestionsGetFormerrAndAResponseIsNeverAnswered() throws Exception {
        byte[] one = query(0x6666, "web.default.svc.clusterset.local", WireClient.A, Optional.empty());
        byte[] question = Arrays.copyOfRange(one, 12, one.length);
        byte[] two = header(0x6666, 0x0100, 2, 0, 0, 0, concat(question, question));
        formerr(two);
        byte[] response = one.clone();
        response[2] |= (byte) 0x80;
        assertThat(served.client.udpRaw(response)).isEmpty();
    }

    @Test
    void anUnknownEdnsVersionGetsBadversAndAnUnknownOpcodeNotimp() throws Exception {
        byte[] q = query(0x7777, "web.default.svc.clusterset.local", WireClient.A, Optional.of(1232));
        q[q.length - 5] = 1; // the OPT record's version byte
        WireClient.Response badvers = served.client.udp(q);
        assertThat(badvers.answers()).isEmpty();
        WireClient.Rr opt = badvers.additionals().getFirst();
        assertThat(opt.type()).isEqualTo(WireClient.OPT);
        assertThat(opt.ttl() >>> 24).as("extended rcode 1: BADVERS (16)").isEqualTo(1);
        byte[] status = query(0x7778, "web.default.svc.clusterset.local", WireClient.A, Optional.empty());
        status[2] = (byte) (2 << 3); // opcode STATUS
        assertThat(served.client.udp(status).rcode()).isEqualTo(4);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
