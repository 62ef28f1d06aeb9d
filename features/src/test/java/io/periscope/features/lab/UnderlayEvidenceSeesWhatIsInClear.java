package io.periscope.features.lab;

import io.periscope.features.backend.CableSecrecy;
import io.periscope.lab.capture.WholeFrame;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link UnderlayEvidence} on frames built by hand: WireGuard data messages both ways with nothing
 * readable inside show the packets hidden; a VXLAN cable, which carries the inner packet as it is,
 * gives the marker and the inner addresses away; a WireGuard handshake alone, or data one way only,
 * shows nothing.
 */
class UnderlayEvidenceSeesWhatIsInClear {

    private static final Ipv4Address GW_A = Ipv4Address.parse("172.18.0.6");
    private static final Ipv4Address GW_B = Ipv4Address.parse("172.18.0.4");
    private static final Ipv4Address POD_A = Ipv4Address.parse("10.1.128.4");
    private static final Ipv4Address POD_B = Ipv4Address.parse("10.2.128.5");
    private static final byte[] MARKER = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int PORT = 4500;

    private final UnderlayEvidence evidence = new UnderlayEvidence(new UnderlayEvidence.Side("a", Set.of(GW_A)),
            new UnderlayEvidence.Side("b", Set.of(GW_B)), Set.of(PORT), MARKER, Set.of(POD_A, POD_B));
    private final Random random = new Random(29);

    @Test
    void wireGuardDataBothWaysWithNothingReadableShowsThePacketsHidden() {
        CableSecrecy judged = evidence.judge(List.of(frame(GW_A, GW_B, 51820, PORT, wireGuard(4, 100)),
                frame(GW_B, GW_A, 51820, PORT, wireGuard(4, 100))));

        assertThat(judged).isInstanceOf(CableSecrecy.Shown.class);
        assertThat(((CableSecrecy.Shown) judged).how()).contains("1 WireGuard data messages (type 4) from a to b and 1 back");
    }

    @Test
    void aVxlanCableGivesTheMarkerAway() {
        byte[] vxlan = concat(new byte[]{8, 0, 0, 0, 0, 0, 100, 0}, new byte[14], innerIp(POD_A, POD_B), MARKER);

        CableSecrecy judged = evidence.judge(List.of(frame(GW_A, GW_B, 40000, 4789, vxlan)));

        assertThat(judged).isInstanceOf(CableSecrecy.Contradicted.class);
        assertThat(((CableSecrecy.Contradicted) judged).what()).contains("marker").contains("from 172.18.0.6 to 172.18.0.4");
    }

    @Test
    void anInnerAddressInClearIsGivenAwayEvenWithoutTheMarker() {
        byte[] clear = concat(wireGuard(4, 20), innerIp(POD_A, POD_B));

        CableSecrecy judged = evidence.judge(List.of(frame(GW_A, GW_B, 51820, PORT, clear), frame(GW_B, GW_A, 51820, PORT, wireGuard(4, 100))));

        assertThat(judged).isInstanceOf(CableSecrecy.Contradicted.class);
        assertThat(((CableSecrecy.Contradicted) judged).what()).matches("the inner address (10.1.128.4|10.2.128.5) is in clear .*");
    }

    @Test
    void handshakesOrDataOneWayShowNothing() {
        assertThat(evidence.judge(List.of(frame(GW_A, GW_B, 51820, PORT, wireGuard(1, 120)), frame(GW_B, GW_A, 51820, PORT, wireGuard(2, 70)))))
                .isInstanceOf(CableSecrecy.Contradicted.class);
        assertThat(evidence.judge(List.of(frame(GW_A, GW_B, 51820, PORT, wireGuard(4, 100)))))
                .isInstanceOf(CableSecrecy.Contradicted.class);
        assertThat(evidence.judge(List.of(frame(GW_A, GW_B, 51820, 9999, wireGuard(4, 100)), frame(GW_B, GW_A, 51820, 9999, wireGuard(4, 100)))))
                .as("data messages to another port than the cable's").isInstanceOf(CableSecrecy.Contradicted.class);
    }

    @Test
    void packetsWithinOneClusterAreNotLookedAt() {
        Ipv4Address worker = Ipv4Address.parse("172.18.0.10");
        UnderlayEvidence withWorker = new UnderlayEvidence(new UnderlayEvidence.Side("a", Set.of(GW_A, worker)),
                new UnderlayEvidence.Side("b", Set.of(GW_B)), Set.of(PORT), MARKER, Set.of(POD_A, POD_B));
        byte[] vxlan = concat(new byte[]{8, 0, 0, 0, 0, 0, 100, 0}, new byte[14], innerIp(POD_A, POD_B), MARKER);

        assertThat(withWorker.judge(List.of(frame(worker, GW_A, 40000, 4800, vxlan), frame(GW_A, GW_B, 51820, PORT, wireGuard(4, 100)),
                frame(GW_B, GW_A, 51820, PORT, wireGuard(4, 100))))).isInstanceOf(CableSecrecy.Shown.class);
    }

    /** A WireGuard message: type, three zero bytes, then random bytes as a ciphertext would look. */
    private byte[] wireGuard(int type, int length) {
        byte[] message = new byte[length];
        random.nextBytes(message);
        message[0] = (byte) type;
        message[1] = 0;
        message[2] = 0;
        message[3] = 0;
        return message;
    }

    private static byte[] innerIp(Ipv4Address src, Ipv4Address dst) {
        byte[] header = new byte[20];
        header[0] = 0x45;
        header[9] = 1;
        put(header, 12, src);
        put(header, 16, dst);
        return header;
    }

    private static byte[] bytes(Ipv4Address src, Ipv4Address dst, int sport, int dport, byte[] payload) {
        byte[] ethernet = new byte[14];
        ethernet[12] = 0x08;
        byte[] ip = innerIp(src, dst);
        ip[9] = 17;
        byte[] udp = {(byte) (sport >> 8), (byte) sport, (byte) (dport >> 8), (byte) dport, 0, 0, 0, 0};
        return concat(ethernet, ip, udp, payload);
    }

    private static WholeFrame frame(Ipv4Address src, Ipv4Address dst, int sport, int dport, byte[] payload) {
        return new WholeFrame(HostId.node("a", "gw"), "wan0", bytes(src, dst, sport, dport, payload));
    }

    private static void put(byte[] b, int at, Ipv4Address address) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) address.octet(i);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
