package io.periscope.lab.kernel;

import io.periscope.lab.capture.CaptureSession;
import io.periscope.lab.capture.CaptureTarget;
import io.periscope.lab.capture.WholeFrame;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session that keeps whole frames (the features' proof that a cable hides what it carries reads
 * their bytes) keeps echo requests leaving and replies arriving alike, cut at its snap length.
 */
class AWholeFrameCaptureKeepsTheBytesThatCrossedBothWays {

    private static final int ETHERNET_AND_IP = 14 + 20;
    private static final int ICMP_TYPE_ECHO_REQUEST = 8;
    private static final int ICMP_TYPE_ECHO_REPLY = 0;

    @BeforeAll
    static void usable() {
        NamespaceRig.assumeUsable();
    }

    @Test
    void echoRequestsAndRepliesCarryTheMarkerInTheKeptBytes() {
        String marker = "5ca1ab1e0ddba11c";
        try (NamespaceRig rig = new NamespaceRig("wf")) {
            rig.namespace("a").namespace("b").link("a", "ab", "10.77.9.1/24", "b", "ba", "10.77.9.2/24");
            HostId a = HostId.node("lab", "a");
            List<WholeFrame> frames;
            try (CaptureSession session = CaptureSession.keepingWholeFrames(List.of(CaptureTarget.forWholeFrames(a, rig.ns("a"), "ab")), 96)) {
                rig.in("a", "ping", "-n", "-c", "2", "-i", "0.2", "-W", "2", "-s", "200", "-p", marker, "10.77.9.2");
                frames = session.stopWithFrames();
            }

            List<WholeFrame> echoes = frames.stream().filter(f -> f.bytes().length > ETHERNET_AND_IP
                    && (f.bytes()[23] & 0xff) == 1).toList();
            assertThat(echoes).as("ICMP frames seen on a's side of the link").isNotEmpty();
            assertThat(echoes).allSatisfy(f -> {
                assertThat(f.host()).isEqualTo(a);
                assertThat(f.iface()).isEqualTo("ab");
                assertThat(f.bytes()).as("cut at the snap length, not at the 242 bytes that crossed").hasSize(96);
                assertThat(HexFormat.of().formatHex(f.bytes())).contains(marker);
            });
            assertThat(echoes).extracting(f -> f.bytes()[ETHERNET_AND_IP] & 0xff)
                    .contains(ICMP_TYPE_ECHO_REQUEST, ICMP_TYPE_ECHO_REPLY);
        }
    }

    @Test
    void aSightingSessionRefusesToHandOverFrames() {
        try (NamespaceRig rig = new NamespaceRig("wg")) {
            rig.namespace("a").namespace("b").link("a", "ab", "10.77.9.1/24", "b", "ba", "10.77.9.2/24");
            CaptureSession session = CaptureSession.start(
                    List.of(CaptureTarget.forWholeFrames(HostId.node("lab", "a"), rig.ns("a"), "ab")), java.util.Set.of());
            try {
                org.assertj.core.api.Assertions.assertThatThrownBy(session::stopWithFrames)
                        .hasMessageContaining("keepingWholeFrames");
            } finally {
                session.close();
            }
        }
    }
}
