package io.periscope.lab.probe;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.TestTopologies;
import io.periscope.lab.trace.TracePath;
import io.periscope.labsimulator.SimulatorFlows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WireGuard device that drops a packet on receive, in the kernel (#28 item 11): the headless pod on
 * c0's second gateway connects to c1, its packet leaves gw1 by WireGuard with the pod's global IP as
 * inner source, and c1/gw1's wireguard-go decrypts it and drops it, since that source is among gw0's
 * peer's allowed IPs. Nothing is delivered, as the simulator says; the probe must see the packet
 * arrive at c1/gw1 and say why it died there, so the comparison judges the place it ended.
 */
class WireGuardDropOnReceiveIsSeenAtTheReceiver {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void theObservedPathEndsAtTheReceivingGatewayWithTheAllowedIpsDrop() {
        RunningLab lab = labs.up(RunningLab.forTest(TestTopologies.wireGuardDropOnReceive(), "wgrx"));

        ProbeReport report = lab.probe(Optional.of("db-to-web"), SimulatorFlows::new);

        FlowProbeResult flow = report.flows().getFirst();
        assertThat(flow.problem()).isEmpty();
        assertThat(flow.attempts()).isNotEmpty().allSatisfy(attempt -> {
            assertThat(attempt.outcome().disposition()).as("what the socket saw").isNotEqualTo("delivered");
            TracePath observed = attempt.observed();
            assertThat(observed.forward()).extracting(hop -> hop.position())
                    .containsExactly("c0/default/db out eth0", "c0/gw1 in p-db out submariner", "c1/gw1 in wan0");
            assertThat(observed.disposition()).isEqualTo("dropped");
            assertThat(observed.reason()).hasValueSatisfying(reason -> assertThat(reason)
                    .startsWith("c1/gw1 submariner drops a packet from peer c0/gw1 (172.18.0.3:4500): inner source 242.0.0.254 is not in"
                            + " its allowed IPs [242.0.0.3/32, 242.0.0.4/32] (decrypted: the peer's received bytes grew by "));
            assertThat(attempt.match().matches()).as("from port %d: %s", attempt.outcome().sourcePort(), attempt.match().firstDifference())
                    .isTrue();
        });
        assertThat(flow.matchesSimulation()).isTrue();
        assertThat(report.matchesSimulation()).isTrue();
    }
}
