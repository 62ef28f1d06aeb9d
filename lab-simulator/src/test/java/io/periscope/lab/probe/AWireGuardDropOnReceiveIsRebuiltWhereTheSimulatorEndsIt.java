package io.periscope.lab.probe;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.lab.TestTopologies;
import io.periscope.lab.capture.IpDatagram;
import io.periscope.lab.capture.Sighting;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.trace.PathComparison;
import io.periscope.lab.trace.PathMatch;
import io.periscope.lab.trace.TracePath;
import io.periscope.lab.wireguard.WireGuardCounters;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The headless pod on c0's second gateway connects to c1 over WireGuard, and c1's device drops the
 * packet: its inner source (the pod's global IP) is among c0/gw0's peer's allowed IPs, not gw1's. The
 * simulator ends the path at c1/gw1, in by wan0, dropped. The frames the lab would capture (the SYN
 * into gw1's device, the encrypted packet out of gw1's wan0 and into c1/gw1's, nothing out of c1/gw1's
 * device) and the device's counters are rebuilt into the same path, with the drop attributed there.
 */
class AWireGuardDropOnReceiveIsRebuiltWhereTheSimulatorEndsIt {

    private static final long SEQUENCE = 0x1234_5678L;
    private static final HostId RECEIVER = HostId.node("c1", "gw1");

    private final ClusterSet set = TestTopologies.wireGuardDropOnReceive();
    private final ClusterSetPlan plan = Planner.plan(LabCables.of(set).set());
    private final SimulatorFlows simulation = new SimulatorFlows(plan);
    private final Flow flow = set.flow("db-to-web").orElseThrow();
    private final ProbeTarget target = simulation.resolve(flow);
    private final List<TracePath> simulated = simulation.paths(target, 40000);
    private final LabWiring wiring = LabWiring.planned(plan);

    @Test
    void theSimulatorDropsItAtTheReceiverForItsInnerSource() {
        assertThat(simulated).singleElement().satisfies(path -> {
            assertThat(path.disposition()).isEqualTo("dropped");
            assertThat(path.forward().getLast().position()).isEqualTo("c1/gw1 in wan0");
            assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("inner source 242.0.0.254 is not in its allowed IPs"));
        });
    }

    @Test
    void theCapturesAndCountersEndThePathAtTheReceiverWithTheAllowedIpsDrop() {
        List<Sighting> sightings = sightingsOfTheDrop();
        long arrived = 148 - 28;

        TracePath observed = analyse(sightings, counted(1000, 1000 + arrived));

        assertThat(observed.forward()).isEqualTo(simulated.getFirst().forward());
        assertThat(observed.disposition()).isEqualTo("dropped");
        assertThat(observed.reason()).contains("c1/gw1 submariner drops a packet from peer c0/gw1 (172.18.0.3:4500): inner source 242.0.0.254"
                + " is not in its allowed IPs [242.0.0.3/32, 242.0.0.4/32] (decrypted: the peer's received bytes grew by 120 for the 120 bytes"
                + " that arrived from it, and nothing came out of the device)");
        PathMatch match = PathComparison.compare(observed, simulated);
        assertThat(match.matches()).as("%s", match.firstDifference()).isTrue();

        JsonNode json = ProbeReportJson.path(observed);
        assertThat(json.get("reason").asText()).isEqualTo(observed.reason().orElseThrow());
        JsonNode last = json.get("forward").get("hops").get(2);
        assertThat(last.get("node").asText()).isEqualTo("c1/gw1");
        assertThat(last.get("steps").findValuesAsText("kind")).containsExactly("drop");
    }

    @Test
    void withoutCountersTheDropIsStillPlacedAtTheReceiver() {
        TracePath observed = analyse(sightingsOfTheDrop(), WireGuardReceipts.UNREAD);

        assertThat(PathComparison.compare(observed, simulated).matches()).isTrue();
        assertThat(observed.reason()).hasValueSatisfying(r -> assertThat(r).contains("its counters could not be read")
                .contains("242.0.0.254 is not in the peer's allowed IPs"));
    }

    @Test
    void aPacketTheReceiverNeverSawEndsAtTheSenderAndDiffers() {
        List<Sighting> sightings = new ArrayList<>(sightingsOfTheDrop());
        sightings.removeIf(s -> s.host().equals(RECEIVER));

        TracePath observed = analyse(sightings, WireGuardReceipts.UNREAD);

        assertThat(observed.forward()).hasSize(2);
        assertThat(observed.reason()).isEmpty();
        assertThat(PathComparison.compare(observed, simulated).firstDifference())
                .hasValueSatisfying(d -> assertThat(d.describe()).contains("c1/gw1 in wan0"));
    }

    /** What the lab captures: every frame of the simulated path but the receiver's inner packet, which never comes out. */
    private List<Sighting> sightingsOfTheDrop() {
        List<Sighting> sightings = new ArrayList<>(HopReconstructionRebuildsSimulatedPaths.replay(plan, wiring, simulated.getFirst().forward(),
                IpDatagram.TCP_SYN, SEQUENCE, 0));
        sightings.removeIf(s -> s.host().equals(RECEIVER) && s.frame().datagram().protocol() == IpDatagram.TCP);
        return sightings;
    }

    private TracePath analyse(List<Sighting> sightings, WireGuardReceipts receipts) {
        AttemptOutcome outcome = new AttemptOutcome(40000, 0, "", target.sourceIp(), "dropped", Optional.of("connect timed out"));
        return new AttemptAnalysis(target, wiring, sightings, (host, packet, in) -> Optional.empty(), receipts)
                .observe(outcome, port -> Optional.empty());
    }

    /** c1/gw1's device as the lab configures it, its peer for c0/gw1 having received {@code before}, then {@code after} bytes. */
    private WireGuardReceipts counted(long before, long after) {
        List<WireGuardPeer> peers = plan.host(RECEIVER).orElseThrow().submariner().wireGuardDevices().getFirst().peers();
        return new WireGuardReceipts(Map.of(RECEIVER, counters(peers, before)), Map.of(RECEIVER, counters(peers, after)));
    }

    private static WireGuardCounters counters(List<WireGuardPeer> peers, long fromGw1) {
        return new WireGuardCounters(peers.stream().map(p -> new WireGuardCounters.Peer("KEY-" + p.remote(), Optional.of(p.endpoint()),
                p.allowedIps(), p.remote().equals("c0/gw1") ? fromGw1 : 0)).toList(), 0);
    }
}
