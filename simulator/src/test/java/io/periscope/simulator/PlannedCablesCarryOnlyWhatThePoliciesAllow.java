package io.periscope.simulator;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.simulator.trace.Encapsulation;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static io.periscope.simulator.TraceQueries.steps;
import static org.assertj.core.api.Assertions.assertThat;

/** The planner's cables, traced: the examples of seed 001 and cable drivers under multiple active gateways. */
class PlannedCablesCarryOnlyWhatThePoliciesAllow {

    private static ClusterSet example(String name) {
        try {
            return TopologyLoader.load(Path.of("..", "examples", name));
        } catch (TopologyException e) {
            throw new AssertionError(e.report(), e);
        }
    }

    private static ClusterSet parse(String yaml) {
        try {
            return TopologyLoader.parse(yaml, "inline.yaml");
        } catch (TopologyException e) {
            throw new AssertionError(e.report(), e);
        }
    }

    private static FlowTrace trace(ClusterSet set, String flow) {
        Flow wanted = set.flows().stream().filter(f -> f.name().equals(flow)).findFirst().orElseThrow();
        try {
            return new Simulator(Planner.plan(set)).trace(wanted);
        } catch (FlowResolutionException e) {
            throw new AssertionError(e);
        }
    }

    /** The encapsulations that carried the packet between gateways (not the route agent's vx-submariner). */
    private static List<Step.Encap> betweenClusters(List<Hop> hops) {
        return steps(hops, Step.Encap.class).stream().filter(e -> !e.device().equals("vx-submariner")).toList();
    }

    @Test
    void everyFlowOfBothSeedExamplesEndsAsItsExpectSays() {
        for (String file : List.of("client-server.yaml", "on-premise-vxlan-cloud-wireguard.yaml")) {
            ClusterSet set = example(file);
            Simulator simulator = new Simulator(Planner.plan(set));
            for (Flow flow : set.flows()) {
                FlowTrace trace;
                try {
                    trace = simulator.trace(flow);
                } catch (FlowResolutionException e) {
                    throw new AssertionError(e);
                }
                assertThat(trace.paths()).as(file + " " + flow.name()).isNotEmpty()
                        .allSatisfy(p -> assertThat(p.disposition()).as(file + " " + flow.name() + " " + p.reason())
                                .isEqualTo(flow.expect().orElseThrow()));
            }
        }
    }

    @Test
    void theOnPremisePairCarriesThePayloadInClearOverVxlanAndTheCloudPairsEncryptOverWireGuard() {
        ClusterSet set = example("on-premise-vxlan-cloud-wireguard.yaml");
        PathTrace onPremise = trace(set, "frontend-to-inventory").paths().getFirst();
        assertThat(betweenClusters(onPremise.forward())).singleElement().satisfies(e -> {
            assertThat(e.encapsulation()).isEqualTo(Encapsulation.VXLAN);
            assertThat(e.device()).isEqualTo("vxlan-tunnel");
            assertThat(e.encrypted()).isFalse();
        });
        PathTrace toCloud = trace(set, "frontend-to-analytics").paths().getFirst();
        assertThat(betweenClusters(toCloud.forward())).singleElement().satisfies(e -> {
            assertThat(e.encapsulation()).isEqualTo(Encapsulation.WIREGUARD);
            assertThat(e.encrypted()).isTrue();
            assertThat(e.outerDst().toString()).isEqualTo("203.0.113.23");
            assertThat(e.port()).isEqualTo(4500);
        });
        // The cloud gateway answers the on-premise gateway on its WireGuard port, 4501, as vxlan holds 4500 there.
        assertThat(betweenClusters(toCloud.reply())).singleElement().satisfies(e -> assertThat(e.port()).isEqualTo(4501));
    }

    @Test
    void clustersNoConnectivityPolicyConnectsAreUnreachableWithThePolicyAsReason() {
        FlowTrace trace = trace(example("client-server.yaml"), "client1-to-client2");
        assertThat(trace.paths()).singleElement().satisfies(p -> {
            assertThat(p.disposition()).isEqualTo(Disposition.UNREACHABLE);
            assertThat(p.reason()).hasValueSatisfying(r -> assertThat(r).endsWith("no ClusterConnectivityPolicy connects client1 and client2"));
            assertThat(p.forward().getLast().node().toString()).isEqualTo("client1/client1-worker");
        });
    }

    /** client-server's gateways have no publicIP, so, as upstream, ESP crosses between them as IP protocol 50. */
    @Test
    void libreswanPairsEncryptBareEspBetweenTheGatewaysEndpointsWhenNoNatSeparatesThem() {
        PathTrace path = trace(example("client-server.yaml"), "client1-to-db").paths().getFirst();
        assertThat(betweenClusters(path.forward())).singleElement().satisfies(e -> {
            assertThat(e.encapsulation()).isEqualTo(Encapsulation.ESP);
            // Local subnet 1 (the pod CIDR), remote subnet 0 (the service CIDR): the Endpoints list service CIDRs first.
            assertThat(e.device()).isEqualTo("submariner-cable-server-172-30-10-2-1-0");
            assertThat(e.encrypted()).isTrue();
            assertThat(e.packet().protocol()).isEqualTo(Protocol.ESP);
            assertThat(e.packet().src().toString()).isEqualTo("172.30.11.2");
            assertThat(e.packet().dst().toString()).isEqualTo("172.30.10.2");
        });
    }

    /** c1 has two active gateways, c2 one; with Globalnet both use the same pod CIDR. */
    private static final String TWO_GATEWAYS_AND_ONE = """
            name: mag-wireguard
            %s
            defaults: {cableDriver: wireguard}
            clusters:
              - name: c1
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                multiActiveGateways: true
                nodes:
                  - {name: gw-a, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                  - {name: gw-b, ip: 172.20.1.3, cniIP: 10.1.64.1, gateway: true}
                  - {name: worker, ip: 172.20.1.4, cniIP: 10.1.128.1}
                pods:
                  - {name: server, namespace: default, node: worker, ip: 10.1.128.5, labels: {app: server}}
                services:
                  - {name: server, namespace: default, clusterIP: 100.1.0.10, selector: {app: server}, ports: [{port: 80, targetPort: 80, protocol: TCP}]}
                exports: [default/server]
              - name: c2
                podCIDRs: [%s.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.2.2, cniIP: %s.0.1, gateway: true}
                  - {name: worker, ip: 172.20.2.3, cniIP: %s.1.1}
                pods:
                  - {name: client, namespace: default, node: worker, ip: %s.1.5, labels: {app: client}}
                services:
                  - {name: client, namespace: default, clusterIP: 100.2.0.10, selector: {app: client}, ports: [{port: 8080, targetPort: 8080, protocol: TCP}]}
                exports: [default/client]
            flows:
              - {name: client-to-server, from: c2/default/client, to: server.default.svc.clusterset.local:80, protocol: tcp}
              - {name: server-to-client, from: c1/default/server, to: client.default.svc.clusterset.local:8080, protocol: tcp}
            """;

    private static ClusterSet twoGatewaysAndOne(String globalnet, String c2Prefix) {
        return parse(TWO_GATEWAYS_AND_ONE.formatted(globalnet, c2Prefix, c2Prefix, c2Prefix, c2Prefix));
    }

    @Test
    void withoutGlobalnetWireGuardHoldsARemoteClustersSubnetsOnlyOnItsFirstActiveGatewaysPeer() {
        ClusterSet set = twoGatewaysAndOne("", "10.2");
        // Into c1: c2 encrypts for gw-a, whose peer holds c1's subnets; gw-a DNATs and SNATs to its CNI
        // address, so the reply comes back through it.
        assertThat(trace(set, "client-to-server").paths()).isNotEmpty()
                .allSatisfy(p -> assertThat(p.disposition()).as(p.reason().orElse("")).isEqualTo(Disposition.DELIVERED));
        // Out of c1: the worker spreads over both gateways; what gw-b sends, c2 drops.
        List<PathTrace> paths = trace(set, "server-to-client").paths();
        assertThat(paths).extracting(PathTrace::disposition).containsExactlyInAnyOrder(Disposition.DELIVERED, Disposition.DROPPED);
        assertThat(paths).filteredOn(p -> p.disposition() == Disposition.DROPPED).singleElement()
                .satisfies(p -> assertThat(p.reason()).hasValueSatisfying(r -> assertThat(r)
                        .contains("drops a packet from peer c1/gw-b").contains("is not in its allowed IPs []")
                        .contains("belongs to peer c1/gw-a")));
    }

    @Test
    void withGlobalnetEachActiveGatewaysEgressAddressesMakeWireGuardCarryItsFlowsBothWays() {
        ClusterSet set = twoGatewaysAndOne("globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}", "10.1");
        for (String flow : List.of("client-to-server", "server-to-client")) {
            assertThat(trace(set, flow).paths()).as(flow).hasSizeGreaterThan(0)
                    .allSatisfy(p -> assertThat(p.disposition()).as(flow + " " + p.reason().orElse("")).isEqualTo(Disposition.DELIVERED));
        }
    }

    @Test
    void withGlobalnetTheGlobalCidrOfAClusterNoPolicyConnectsIsUnreachableByPolicy() {
        ClusterSet set = twoGatewaysAndOne("""
                globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
                connectivityPolicies:
                  - {name: databases-only, leftClusterSelector: {role: database}, rightClusterSelector: {}}""", "10.1");
        assertThat(trace(set, "client-to-server").paths()).singleElement().satisfies(p -> {
            assertThat(p.disposition()).isEqualTo(Disposition.UNREACHABLE);
            assertThat(p.reason()).hasValueSatisfying(r -> assertThat(r).contains("unreachable 242.0.0.0/16")
                    .endsWith("no ClusterConnectivityPolicy connects c2 and c1"));
            assertThat(betweenClusters(p.forward())).isEmpty();
        });
    }
}
