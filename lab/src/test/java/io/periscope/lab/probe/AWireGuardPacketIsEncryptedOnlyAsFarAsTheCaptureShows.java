package io.periscope.lab.probe;

import io.periscope.lab.capture.IpDatagram;
import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code encrypted} of a WireGuard hop the probe rebuilds comes from the captured outer packet
 * ({@link HopReconstruction#hidden}): a transport data message (type 4) whose kept start shows
 * neither inner address; a handshake, or a message where an inner address can be read, is not.
 */
class AWireGuardPacketIsEncryptedOnlyAsFarAsTheCaptureShows {

    private static final Ipv4Address POD_A = Ipv4Address.parse("10.1.128.4");
    private static final Ipv4Address POD_B = Ipv4Address.parse("10.2.128.5");
    private static final IpDatagram INNER = datagram(POD_A, POD_B, 6, "");

    @Test
    void aDataMessageWithNothingReadableIsEncrypted() {
        assertThat(HopReconstruction.hidden(outer("\u0004\u0000\u0000\u0000\u00a7\u0013\u0091\u00fe random bytes of ciphertext"), INNER)).isTrue();
    }

    @Test
    void aHandshakeShowsNothingOfTheData() {
        assertThat(HopReconstruction.hidden(outer("\u0001\u0000\u0000\u0000 initiation"), INNER)).isFalse();
    }

    @Test
    void aDataMessageWhereAnInnerAddressCanBeReadIsNot() {
        String innerHeaderInClear = "E\u0000\u0000\u0054\u0000\u0000\u0040\u0000\u0040\u0006\u0000\u0000"
                + "\n\u0001\u0080\u0004" + "\n\u0002\u0080\u0005";
        assertThat(HopReconstruction.hidden(outer("\u0004\u0000\u0000\u0000" + "\u0000".repeat(12) + innerHeaderInClear), INNER)).isFalse();
    }

    private static IpDatagram outer(String payload) {
        return datagram(Ipv4Address.parse("172.18.0.6"), Ipv4Address.parse("172.18.0.4"), IpDatagram.UDP, payload);
    }

    private static IpDatagram datagram(Ipv4Address src, Ipv4Address dst, int protocol, String payload) {
        return new IpDatagram(src, dst, protocol, 148, 4500, 4500, IpDatagram.TcpFields.NONE, -1, -1, payload, Optional.empty());
    }
}
