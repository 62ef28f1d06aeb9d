package io.periscope.simulator.scenarios;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's MSS clamp sits in mangle SUBMARINER-POSTROUTING, which the kernel runs for forwarded
 * and for locally generated packets alike (the lab's {@code MssClampInTheKernel} counts both). The
 * simulator does not carry the MSS option in a packet, so what it predicts is which SYNs meet the
 * clamp: on mag-vanilla, the SYN of a pod's connection leaves worker-1 (so passes its POSTROUTING)
 * from an address in SUBMARINER-LOCALCIDRS to one in SUBMARINER-REMOTECIDRS, the sets of the clamp's
 * first rule; the SYN of the node's own connection passes mangle POSTROUTING from vx-submariner's
 * address, as upstream's does, and only the nat SNAT after it gives it the CNI address.
 */
class MssClampCoversForwardedAndHostTraffic {

    private static final HostId WORKER = HostId.node("cluster1", "worker-1");
    private static final Ipv4Address SERVICE = Ipv4Address.parse("100.2.0.132");

    private static boolean inSet(DataplanePlan plan, String set, Ipv4Address address) {
        IpSet ipSet = plan.ipset(set).orElseThrow();
        return ipSet.members().stream().anyMatch(p -> p.contains(address));
    }

    /** Every SYN that leaves worker-1 on a forward path meets the clamp's first rule there. */
    private static void assertClampedOnTheWorker(Simulator simulator, ResolvedFlow flow, Ipv4Address source) {
        DataplanePlan worker = simulator.plan().host(WORKER).orElseThrow().effective();
        List<io.periscope.plan.netfilter.Rule> clamp = worker.table(Table.MANGLE).orElseThrow().chains().stream()
                .filter(c -> c.name().equals("SUBMARINER-POSTROUTING")).findFirst().orElseThrow().rules();
        assertThat(clamp).map(IptablesSyntax::rule)
                .first().asString().contains("--match-set SUBMARINER-LOCALCIDRS src -m set --match-set SUBMARINER-REMOTECIDRS dst")
                .endsWith("-j TCPMSS --clamp-mss-to-pmtu");
        List<PathTrace> paths = simulator.trace(flow);
        assertThat(paths).isNotEmpty();
        for (PathTrace path : paths) {
            Hop hop = path.forward().stream().filter(h -> h.node().equals(WORKER)).findFirst().orElseThrow();
            Packet leaving = hop.depart().orElseThrow();
            assertThat(leaving.src()).isEqualTo(source);
            assertThat(inSet(worker, "SUBMARINER-LOCALCIDRS", leaving.src())).isTrue();
            assertThat(inSet(worker, "SUBMARINER-REMOTECIDRS", leaving.dst())).isTrue();
        }
    }

    @Test
    void aPodsSynMeetsTheClampOnItsNode() throws Exception {
        Simulator simulator = DocumentedSteps.simulator("mag-vanilla.yaml");
        assertClampedOnTheWorker(simulator, new ResolvedFlow(HostId.pod("cluster1", "default", "client"),
                Optional.of(Ipv4Address.parse("10.1.128.4")), SERVICE, 80, Protocol.TCP), Ipv4Address.parse("10.1.128.4"));
    }

    /**
     * Upstream's node sends its own SYN from vx-submariner's address (main's route gives no source)
     * and SNATs it to its CNI address in nat POSTROUTING, after mangle POSTROUTING: the clamp sees a
     * source outside SUBMARINER-LOCALCIDRS and leaves the SYN alone, whose MSS the node already took
     * from the route's MTU.
     */
    @Test
    void theNodesOwnSynLeavesFromItsCniAddressButPassesTheClampBeforeTheSnat() throws Exception {
        Simulator simulator = DocumentedSteps.simulator("mag-vanilla.yaml");
        ResolvedFlow flow = new ResolvedFlow(WORKER, Optional.empty(), SERVICE, 80, Protocol.TCP);
        DataplanePlan worker = simulator.plan().host(WORKER).orElseThrow().effective();
        List<PathTrace> paths = simulator.trace(flow);
        assertThat(paths).isNotEmpty();
        for (PathTrace path : paths) {
            Hop hop = path.forward().stream().filter(h -> h.node().equals(WORKER)).findFirst().orElseThrow();
            assertThat(inSet(worker, "SUBMARINER-LOCALCIDRS", hop.arrive().src())).as("vx-submariner's address").isFalse();
            assertThat(hop.steps()).noneMatch(s -> s instanceof Step.Mss);
            assertThat(hop.steps()).anyMatch(s -> s instanceof Step.Snat);
            assertThat(hop.depart().orElseThrow().src()).isEqualTo(Ipv4Address.parse("10.1.128.1"));
        }
    }
}
