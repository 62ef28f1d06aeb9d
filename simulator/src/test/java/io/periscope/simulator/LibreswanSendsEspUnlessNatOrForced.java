package io.periscope.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.simulator.TraceQueries.steps;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's Libreswan driver passes {@code --forceencaps} only when NAT discovery finds NAT between
 * the gateways or {@code ceIPSecForceUDPEncaps} is set; otherwise ESP crosses as IP protocol 50. Two
 * clusters joined by the default driver, libreswan, traced with neither gateway behind NAT, with each
 * one behind NAT in turn (a {@code publicIP} other than its {@code ip}), and with the policy's
 * {@code forceUDPEncapsulation}.
 */
class LibreswanSendsEspUnlessNatOrForced {

    private static final String TOPOLOGY = """
            name: esp
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: east-gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true%s}
                  - {name: east-worker, ip: 172.20.1.3, cniIP: 10.1.1.1}
                pods:
                  - {name: client, namespace: default, node: east-worker, ip: 10.1.1.10}
              - name: west
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: west-gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true%s}
                  - {name: west-worker, ip: 172.20.2.3, cniIP: 10.2.1.1}
                pods:
                  - {name: server, namespace: default, node: west-worker, ip: 10.2.1.10}
            %s
            flows:
              - {name: client-to-server, from: east/default/client, to: west/default/server:5432, protocol: tcp}
            """;

    private static ClusterSet topology(String eastPublicIp, String westPublicIp, String connectionPolicies) {
        try {
            return TopologyLoader.parse(TOPOLOGY.formatted(eastPublicIp, westPublicIp, connectionPolicies), "esp.yaml");
        } catch (TopologyException e) {
            throw new AssertionError(e.report(), e);
        }
    }

    private static PathTrace trace(ClusterSet set) {
        Flow flow = set.flows().getFirst();
        try {
            List<PathTrace> paths = new Simulator(Planner.plan(set)).trace(flow).paths();
            assertThat(paths).singleElement().satisfies(p -> assertThat(p.disposition()).as(p.reason().orElse(""))
                    .isEqualTo(Disposition.DELIVERED));
            return paths.getFirst();
        } catch (FlowResolutionException e) {
            throw new AssertionError(e);
        }
    }

    /** The cable's encapsulation of one direction (the route agent's vx-submariner aside). */
    private static Step.Encap cable(List<Hop> hops) {
        List<Step.Encap> cables = steps(hops, Step.Encap.class).stream().filter(e -> !e.device().equals("vx-submariner")).toList();
        assertThat(cables).hasSize(1);
        return cables.getFirst();
    }

    private static Step.Decap decap(List<Hop> hops) {
        List<Step.Decap> cables = steps(hops, Step.Decap.class).stream().filter(d -> !d.device().equals("vx-submariner")).toList();
        assertThat(cables).hasSize(1);
        return cables.getFirst();
    }

    @Test
    void withoutNatEspCrossesAsIpProtocol50BetweenTheEndpointsBothWays() {
        PathTrace path = trace(topology("", "", ""));

        Step.Encap out = cable(path.forward());
        assertThat(out.encapsulation()).isEqualTo(Encapsulation.ESP);
        assertThat(out.packet().protocol()).isEqualTo(Protocol.ESP);
        assertThat(out.packet().src().toString()).isEqualTo("172.20.1.2");
        assertThat(out.packet().dst().toString()).isEqualTo("172.20.2.2");
        assertThat(out.packet().sport()).isZero();
        assertThat(out.packet().dport()).isZero();
        assertThat(out.resolution()).contains("ESP (IP protocol 50): no NAT between the endpoints");
        assertThat(decap(path.forward()).encapsulation()).isEqualTo(Encapsulation.ESP);
        assertThat(cable(path.reply()).packet().protocol()).isEqualTo(Protocol.ESP);

        // The trace says so in text and JSON: no UDP port, protocol 50. Pod to pod is subnet 1 on both sides: Endpoints list service CIDRs first.
        assertThat(TraceText.step(out)).startsWith("encap esp submariner-cable-west-172-20-2-2-1-1 proto 50 172.20.1.2 -> 172.20.2.2");
        JsonNode json = TraceJson.step(out);
        assertThat(json.get("encapsulation").asText()).isEqualTo("esp");
        assertThat(json.has("port")).isFalse();
        assertThat(json.get("packet").get("proto").asText()).isEqualTo("esp");
        assertThat(json.get("packet").has("dport")).isFalse();
    }

    @Test
    void aGatewayBehindNatOnEitherSideMakesItEspInUdpOnTheNatTPort() {
        for (ClusterSet set : List.of(topology("", ", publicIP: 198.51.100.2", ""), topology(", publicIP: 198.51.100.1", "", ""))) {
            PathTrace path = trace(set);
            Step.Encap out = cable(path.forward());
            assertThat(out.encapsulation()).isEqualTo(Encapsulation.ESP_IN_UDP);
            assertThat(out.packet().protocol()).isEqualTo(Protocol.UDP);
            assertThat(out.packet().sport()).isEqualTo(4500);
            assertThat(out.packet().dport()).isEqualTo(4500);
            assertThat(out.port()).isEqualTo(4500);
            assertThat(decap(path.forward()).encapsulation()).isEqualTo(Encapsulation.ESP_IN_UDP);
            assertThat(cable(path.reply()).packet().protocol()).isEqualTo(Protocol.UDP);
            assertThat(TraceText.step(out)).contains(" udp/4500 ");
        }
        Step.Encap westBehindNat = cable(trace(topology("", ", publicIP: 198.51.100.2", "")).forward());
        assertThat(westBehindNat.resolution()).contains("ESP in UDP (NAT-T): west-gw (publicIP 198.51.100.2, ip 172.20.2.2) is behind NAT");
        assertThat(westBehindNat.packet().dst().toString()).isEqualTo("198.51.100.2");
    }

    @Test
    void forceUdpEncapsulationMakesItEspInUdpWithoutNat() {
        PathTrace path = trace(topology("", "", """
                connectionPolicies:
                  - cableDriver: {name: libreswan, options: {forceUDPEncapsulation: true}}
                """));
        Step.Encap out = cable(path.forward());
        assertThat(out.encapsulation()).isEqualTo(Encapsulation.ESP_IN_UDP);
        assertThat(out.packet().protocol()).isEqualTo(Protocol.UDP);
        assertThat(out.packet().dport()).isEqualTo(4500);
        assertThat(out.resolution()).contains("the connection policy sets forceUDPEncapsulation: true");

        Step.Encap notForced = cable(trace(topology("", "", """
                connectionPolicies:
                  - cableDriver: {name: libreswan, options: {forceUDPEncapsulation: false}}
                """)).forward());
        assertThat(notForced.encapsulation()).isEqualTo(Encapsulation.ESP);
    }
}
