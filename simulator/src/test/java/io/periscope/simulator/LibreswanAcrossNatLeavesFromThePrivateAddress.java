package io.periscope.simulator;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.simulator.TraceQueries.hopAt;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's Libreswan driver connects from the gateway's private IP to the remote's public one and
 * leaves the translation to the NAT device in front of each gateway, which Periscope models as the
 * environment's 1:1 NAT on {@code wan0}. Two clusters, each gateway behind NAT: the ESP-in-UDP outer
 * packet leaves the sending gateway's IPsec stack from its private address, the environment's SNAT
 * gives it the public one on the WAN, the receiver's environment DNATs it to its private address
 * before XFRM takes it; the reply's outer packet is un-NATed by conntrack on both gateways, no rule
 * involved.
 */
class LibreswanAcrossNatLeavesFromThePrivateAddress {

    private static final String TOPOLOGY = """
            name: nat
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: east-gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true, publicIP: 198.51.100.1}
                  - {name: east-worker, ip: 172.20.1.3, cniIP: 10.1.1.1}
                pods:
                  - {name: client, namespace: default, node: east-worker, ip: 10.1.1.10}
              - name: west
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: west-gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true, publicIP: 198.51.100.2}
                  - {name: west-worker, ip: 172.20.2.3, cniIP: 10.2.1.1}
                pods:
                  - {name: server, namespace: default, node: west-worker, ip: 10.2.1.10}
            flows:
              - {name: client-to-server, from: east/default/client, to: west/default/server:5432, protocol: tcp}
            """;

    private static final HostId EAST_GW = HostId.node("east", "east-gw");
    private static final HostId WEST_GW = HostId.node("west", "west-gw");

    private static PathTrace trace() throws Exception {
        ClusterSet set;
        try {
            set = TopologyLoader.parse(TOPOLOGY, "nat.yaml");
        } catch (TopologyException e) {
            throw new AssertionError(e.report(), e);
        }
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(set.flows().getFirst());
        assertThat(trace.paths()).as(TraceText.render(trace)).singleElement()
                .satisfies(p -> assertThat(p.disposition()).as(p.reason().orElse("")).isEqualTo(Disposition.DELIVERED));
        return trace.paths().getFirst();
    }

    /** The cable's step of one kind on a hop (the route agent's vx-submariner aside). */
    private static <T extends Step> T cableStep(Hop hop, Class<T> kind) {
        List<T> found = hop.steps().stream().filter(kind::isInstance).map(kind::cast).filter(s -> switch (s) {
            case Step.Encap e -> !e.device().equals("vx-submariner");
            case Step.Decap d -> !d.device().equals("vx-submariner");
            default -> true;
        }).toList();
        assertThat(found).as(kind.getSimpleName() + " on " + hop.node()).hasSize(1);
        return found.getFirst();
    }

    private static void outerUdp(Packet packet, String src, String dst) {
        assertThat(packet.protocol()).isEqualTo(Protocol.UDP);
        assertThat(packet.src().toString()).isEqualTo(src);
        assertThat(packet.dst().toString()).isEqualTo(dst);
        assertThat(packet.sport()).isEqualTo(4500);
        assertThat(packet.dport()).isEqualTo(4500);
    }

    @Test
    void theOuterPacketLeavesFromThePrivateAddressAndCrossesTheWanFromThePublicOne() throws Exception {
        PathTrace path = trace();
        Hop east = hopAt(path.forward(), EAST_GW);

        Step.Encap encap = cableStep(east, Step.Encap.class);
        assertThat(encap.encapsulation()).isEqualTo(Encapsulation.ESP_IN_UDP);
        outerUdp(encap.packet(), "172.20.1.2", "198.51.100.2");

        // The environment's NAT device, after the encapsulation: a rule of its own chain, not Submariner's.
        Step.Snat snat = cableStep(east, Step.Snat.class);
        assertThat(snat.rule()).hasValueSatisfying(r -> {
            assertThat(r.chain()).isEqualTo("NAT-DEVICE-OUT");
            assertThat(r.rule()).isEqualTo("-s 172.20.1.2/32 -j SNAT --to-source 198.51.100.1");
        });
        assertThat(east.steps().indexOf(snat)).isGreaterThan(east.steps().indexOf(encap));
        outerUdp(snat.packet(), "198.51.100.1", "198.51.100.2");
        assertThat(east.out()).contains("wan0");

        Hop west = hopAt(path.forward(), WEST_GW);
        assertThat(west.in()).contains("wan0");
        Step.Dnat dnat = cableStep(west, Step.Dnat.class);
        assertThat(dnat.rule()).hasValueSatisfying(r -> assertThat(r.chain()).isEqualTo("NAT-DEVICE-IN"));
        outerUdp(dnat.packet(), "198.51.100.1", "172.20.2.2");
        Step.Decap decap = cableStep(west, Step.Decap.class);
        assertThat(decap.outerSrc().toString()).isEqualTo("198.51.100.1");
        assertThat(decap.outerDst().toString()).isEqualTo("172.20.2.2");
        assertThat(west.steps().indexOf(decap)).isGreaterThan(west.steps().indexOf(dnat));
    }

    @Test
    void theReplysOuterPacketIsUnNatedByConntrackOnBothGateways() throws Exception {
        PathTrace path = trace();
        Hop west = hopAt(path.reply(), WEST_GW);

        Step.Encap encap = cableStep(west, Step.Encap.class);
        outerUdp(encap.packet(), "172.20.2.2", "198.51.100.1");
        // The reply of the connection the forward packet's DNAT made: its source goes back to the public IP.
        Step.Undnat undnat = cableStep(west, Step.Undnat.class);
        outerUdp(undnat.packet(), "198.51.100.2", "198.51.100.1");
        assertThat(west.steps()).noneMatch(s -> s instanceof Step.Snat);

        Hop east = hopAt(path.reply(), EAST_GW);
        Step.Unsnat unsnat = cableStep(east, Step.Unsnat.class);
        outerUdp(unsnat.packet(), "198.51.100.2", "172.20.1.2");
        assertThat(east.steps()).noneMatch(s -> s instanceof Step.Dnat);
        Step.Decap decap = cableStep(east, Step.Decap.class);
        assertThat(decap.outerSrc().toString()).isEqualTo("198.51.100.2");
        assertThat(decap.outerDst().toString()).isEqualTo("172.20.1.2");
    }
}
