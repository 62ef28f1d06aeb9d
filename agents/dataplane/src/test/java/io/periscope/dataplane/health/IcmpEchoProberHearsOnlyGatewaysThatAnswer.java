package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Real ICMP echoes between real namespaces: a gateway answers while its kernel forwards, and not once it drops. */
class IcmpEchoProberHearsOnlyGatewaysThatAnswer {

    private static final Ipv4Address GW1 = Ipv4Address.parse(WatchedGateways.address(1));
    private static final Ipv4Address GW2 = Ipv4Address.parse(WatchedGateways.address(2));
    /** Generous: a round returns as soon as every expected answer is in, and a loaded machine may be slow to answer. */
    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    /** How late the thread of {@link #answersQueuedBeforeALateThreadLooksCountPastItsDeadline} looks: long enough for the answers to be queued. */
    private static final Duration LATE = Duration.ofMillis(1500);

    private WatchedGateways lab;
    private IcmpEchoProber prober;

    @BeforeEach
    void wire() {
        lab = new WatchedGateways(2);
        prober = IcmpEchoProber.openIn(lab.node.name());
    }

    @AfterEach
    void unwire() {
        if (prober != null) {
            prober.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void bothGatewaysAnswerWhileHealthy() {
        assertThat(prober.round(List.of(GW1, GW2), TIMEOUT)).containsExactlyInAnyOrder(GW1, GW2);
    }

    @Test
    void aBlackholedGatewayIsSilentAndTheOtherStillAnswers() {
        lab.blackhole(2);
        assertThat(prober.round(List.of(GW1, GW2), TIMEOUT)).containsExactly(GW1);
        lab.heal(2);
        assertThat(prober.round(List.of(GW1, GW2), TIMEOUT)).containsExactlyInAnyOrder(GW1, GW2);
    }

    @Test
    void aGatewayWhoseLinkIsDownIsSilent() {
        assertThat(prober.round(List.of(GW1, GW2), TIMEOUT)).as("both answer first").containsExactlyInAnyOrder(GW1, GW2);
        lab.gateways.get(0).run("ip", "link", "set", "uplink", "down");
        assertThat(prober.round(List.of(GW1, GW2), TIMEOUT)).containsExactly(GW2);
    }

    @Test
    void answersQueuedBeforeALateThreadLooksCountPastItsDeadline() throws InterruptedException {
        // The prober's thread descheduled past its deadline, as on a busy node: what waits in the socket came in time.
        Set<Ipv4Address> waiting = prober.send(List.of(GW1, GW2));
        Thread.sleep(LATE);
        assertThat(prober.collect(waiting, System.nanoTime())).containsExactlyInAnyOrder(GW1, GW2);

        lab.blackhole(2);
        waiting = prober.send(List.of(GW1, GW2));
        Thread.sleep(LATE);
        assertThat(prober.collect(waiting, System.nanoTime())).as("a silent gateway stays silent, however late").containsExactly(GW1);
    }

    @Test
    void anAddressNobodyHasNeverAnswers() {
        assertThat(prober.round(List.of(Ipv4Address.parse("10.77.1.99")), Duration.ofMillis(200))).isEmpty();
    }

    @Test
    void theChecksumIsTheInternetChecksum() {
        byte[] request = IcmpEchoProber.echoRequest(0x1234, 7);
        assertThat(IcmpEchoProber.checksum(request, 0, request.length)).as("a packet with its checksum sums to zero").isZero();
    }
}
