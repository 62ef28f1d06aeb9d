package io.periscope.lab.probe;

import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePacket;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's own connection leaves SNATed from vx-submariner's address to its CNI address, so its
 * answer is captured arriving at the CNI address, which the node's conntrack takes back before the
 * socket sees it: that is an answer that arrived back. An answer to any other address is not.
 */
class AnAnswerToTheSendersOwnSnatArrivesBack {

    private static final HostId WORKER = HostId.node("east", "east-worker");

    private static TracePacket tcp(String src, int sport, String dst, int dport) {
        return TracePacket.of(Ipv4Address.parse(src), Ipv4Address.parse(dst), sport, dport, Protocol.TCP);
    }

    /** The SYN as the socket sent it (from 240.30.1.3) and as it left the node (from 10.10.1.1). */
    private static final List<TraceHop> FORWARD = List.of(new TraceHop(WORKER.toString(), Optional.empty(), Optional.of("vx-submariner"),
            tcp("240.30.1.3", 40000, "10.20.1.10", 8080), Optional.of(tcp("10.10.1.1", 40000, "10.20.1.10", 8080)), Optional.empty()));

    private static List<TraceHop> answerArriving(TracePacket packet) {
        return List.of(new TraceHop(WORKER.toString(), Optional.of("eth0"), Optional.empty(), packet, Optional.empty(), Optional.empty()));
    }

    @Test
    void anAnswerToTheTranslatedSourceArrivedBack() {
        assertThat(AttemptAnalysis.arrivedBack(WORKER, FORWARD, answerArriving(tcp("10.20.1.10", 8080, "10.10.1.1", 40000)))).isTrue();
    }

    @Test
    void anAnswerToTheSocketsOwnAddressArrivedBack() {
        assertThat(AttemptAnalysis.arrivedBack(WORKER, FORWARD, answerArriving(tcp("10.20.1.10", 8080, "240.30.1.3", 40000)))).isTrue();
    }

    @Test
    void anAnswerToAnotherPortOrAddressDidNot() {
        assertThat(AttemptAnalysis.arrivedBack(WORKER, FORWARD, answerArriving(tcp("10.20.1.10", 8080, "10.10.1.1", 40001)))).isFalse();
        assertThat(AttemptAnalysis.arrivedBack(WORKER, FORWARD, answerArriving(tcp("10.20.1.10", 8080, "10.10.1.9", 40000)))).isFalse();
    }
}
