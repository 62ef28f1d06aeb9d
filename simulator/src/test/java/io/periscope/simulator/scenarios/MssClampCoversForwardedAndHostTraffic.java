package io.periscope.simulator.scenarios;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's MSS clamp sits in mangle SUBMARINER-POSTROUTING, which the kernel runs for forwarded
 * and for locally generated packets alike (the lab's {@code MssClampInTheKernel} counts both). On
 * mag-vanilla, the SYN of a pod's connection and the SYN of the node's own connection to the remote
 * service both enter that chain on worker-1 between the sets the clamp rules match: local
 * (SUBMARINER-LOCALCIDRS) to remote (SUBMARINER-REMOTECIDRS).
 */
class MssClampCoversForwardedAndHostTraffic {

    private static final HostId WORKER = HostId.node("cluster1", "worker-1");

    private record Entered(HostId host, Packet packet) {
    }

    private static List<Entered> clampChainEntries(Simulator simulator, ResolvedFlow flow) {
        List<Entered> entered = new ArrayList<>();
        simulator.trace(flow, (host, table, chain, packet) -> {
            if (table == Table.MANGLE && chain.equals("SUBMARINER-POSTROUTING")) {
                synchronized (entered) {
                    entered.add(new Entered(host, packet));
                }
            }
        });
        return entered;
    }

    private static boolean inSet(Simulator simulator, HostId host, String set, Ipv4Address address) {
        IpSet ipSet = simulator.plan().host(host).orElseThrow().effective().ipsets().stream().filter(s -> s.name().equals(set))
                .findFirst().orElseThrow();
        return ipSet.members().stream().anyMatch((Ipv4Prefix p) -> p.contains(address));
    }

    private static void assertClamped(Simulator simulator, List<Entered> entries, Ipv4Address source) {
        assertThat(entries).filteredOn(e -> e.host().equals(WORKER) && e.packet().src().equals(source)).isNotEmpty()
                .allSatisfy(e -> {
                    assertThat(inSet(simulator, WORKER, "SUBMARINER-LOCALCIDRS", e.packet().src())).isTrue();
                    assertThat(inSet(simulator, WORKER, "SUBMARINER-REMOTECIDRS", e.packet().dst())).isTrue();
                });
    }

    @Test
    void aPodsSynIsClampedOnItsNode() throws Exception {
        Simulator simulator = DocumentedSteps.simulator("mag-vanilla.yaml");
        ResolvedFlow flow = new ResolvedFlow(HostId.pod("cluster1", "default", "client"), Optional.of(Ipv4Address.parse("10.1.128.4")),
                Ipv4Address.parse("100.2.0.132"), 80, Protocol.TCP);
        assertClamped(simulator, clampChainEntries(simulator, flow), Ipv4Address.parse("10.1.128.4"));
    }

    @Test
    void theNodesOwnSynIsClampedTooLeavingFromItsCniAddress() throws Exception {
        Simulator simulator = DocumentedSteps.simulator("mag-vanilla.yaml");
        // No source: the node's connect() picks one, table 150's src (the CNI address).
        ResolvedFlow flow = new ResolvedFlow(WORKER, Optional.empty(), Ipv4Address.parse("100.2.0.132"), 80, Protocol.TCP);
        assertClamped(simulator, clampChainEntries(simulator, flow), Ipv4Address.parse("10.1.128.1"));
    }
}
