package io.periscope.lab.probe;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe's DNS comparison: the simulator offers every answer the asking cluster's server can give
 * (one per round-robin turn), and a real answer agrees when it is one of them, in any order; anything
 * else is the flow's first difference, field {@code dns.answer}.
 */
class RealAnswersAgreeWithAnyTurnOfTheSimulatedRotation {

    private static final String TWO_EXPORTERS = """
            name: rotation
            globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
            clusters:
              - name: client
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes: [{name: c-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
                pods: [{name: web, node: c-gw, ip: 10.244.0.10}]
              - name: east
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes: [{name: e-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}]
                pods: [{name: nginx-e, node: e-gw, ip: 10.244.0.20, labels: {app: nginx}}]
                services: [{name: nginx, clusterIP: 10.96.0.50, selector: {app: nginx}, ports: [{port: 80}]}]
                exports: [default/nginx]
              - name: west
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes: [{name: w-gw, ip: 192.168.30.2, cniIP: 10.244.0.1, gateway: true}]
                pods: [{name: nginx-w, node: w-gw, ip: 10.244.0.30, labels: {app: nginx}}]
                services: [{name: nginx, clusterIP: 10.96.0.50, selector: {app: nginx}, ports: [{port: 80}]}]
                exports: [default/nginx]
            flows:
              - {name: web-to-nginx, from: client/default/web, to: nginx.default.svc.clusterset.local:80, protocol: tcp, expect: delivered}
              - {name: web-to-ghost, from: client/default/web, to: ghost.default.svc.clusterset.local:80, protocol: tcp, expect: unreachable}
            """;

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    @Test
    void theSimulatorOffersOneAnswerPerExportingClusterAndNoneForAMissingName() throws Exception {
        ClusterSet set = TopologyLoader.parse(TWO_EXPORTERS, "rotation.yaml");
        SimulatorFlows simulation = new SimulatorFlows(Planner.plan(set));

        List<List<Ipv4Address>> answers = simulation.answers(set.flow("web-to-nginx").orElseThrow());

        assertThat(answers).hasSize(2).allSatisfy(answer -> assertThat(answer).hasSize(1));
        assertThat(answers.get(0)).isNotEqualTo(answers.get(1));
        assertThat(answers.getFirst().getFirst()).as("the first turn is the address the trace follows")
                .isEqualTo(simulation.resolve(set.flow("web-to-nginx").orElseThrow()).destination());
        assertThat(simulation.answers(set.flow("web-to-ghost").orElseThrow())).isEmpty();
    }

    @Test
    void anyTurnAgreesInAnyOrderAndAnythingElseIsTheFirstDifference() {
        List<List<Ipv4Address>> turns = List.of(List.of(ip("242.1.255.254")), List.of(ip("242.2.255.254")));
        assertThat(new NameResolution("n", "client/default/web", List.of(ip("242.2.255.254")), turns, Optional.empty()).matches()).isTrue();
        assertThat(new NameResolution("n", "a", List.of(ip("10.0.0.2"), ip("10.0.0.1")),
                List.of(List.of(ip("10.0.0.1"), ip("10.0.0.2"))), Optional.empty()).matches()).as("a client may sort").isTrue();
        assertThat(new NameResolution("n", "a", List.of(), List.of(), Optional.empty()).matches()).as("NXDOMAIN on both sides").isTrue();

        NameResolution wrong = new NameResolution("n", "client/default/web", List.of(ip("242.3.255.254")), turns,
                Optional.of(ip("242.3.255.254")));
        FlowProbeResult result = new FlowProbeResult("f", "client/default/web", "n:80", "242.3.255.254:80", 1, List.of(),
                Optional.empty()).withDns(wrong);
        assertThat(result.matchesSimulation()).isFalse();
        assertThat(result.firstDifference()).hasValueSatisfying(d -> {
            assertThat(d.field()).isEqualTo("dns.answer");
            assertThat(d.simulated()).isEqualTo("242.1.255.254 or 242.2.255.254");
            assertThat(d.observed()).isEqualTo("242.3.255.254");
        });
        NameResolution nothing = new NameResolution("n", "a", List.of(), turns, Optional.empty());
        assertThat(nothing.difference()).hasValueSatisfying(d -> assertThat(d.observed()).isEqualTo("no address (NXDOMAIN)"));
    }
}
