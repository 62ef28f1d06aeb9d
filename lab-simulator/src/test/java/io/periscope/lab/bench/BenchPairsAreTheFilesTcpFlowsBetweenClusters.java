package io.periscope.lab.bench;

import io.periscope.lab.Examples;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bench's pod pairs: the file's TCP flows that the simulator delivers from one cluster to one
 * host of another, each with its server where the flow ends; every other TCP flow is named with why
 * it is left out.
 */
class BenchPairsAreTheFilesTcpFlowsBetweenClusters {

    private static BenchPlan.Pairs pairs(ClusterSet topology) {
        ClusterSet set = LabCables.of(topology).set();
        ClusterSetPlan plan = Planner.plan(set);
        return BenchPlan.pairs(set, LabLayout.of(plan), new SimulatorFlows(plan), BenchPlan.FIRST_SOURCE_PORT);
    }

    @Test
    void aFlowToAnExportedServiceEndsAtItsPodOnTheTargetPort() {
        BenchPlan.Pairs found = pairs(Examples.load(Examples.MAG_GLOBALNET));

        assertThat(found.skipped()).isEmpty();
        assertThat(found.pairs()).hasSize(1);
        BenchPlan.Pair pair = found.pairs().getFirst();
        assertThat(pair.flow()).isEqualTo("client-to-nginx");
        assertThat(pair.source()).isEqualTo(HostId.pod("cluster1", "default", "client"));
        assertThat(pair.bind()).contains(io.periscope.model.net.Ipv4Address.parse("10.0.128.4"));
        assertThat(pair.sentFrom()).hasToString("10.0.128.4");
        // The service's global ingress address, as the client connects to it; its server is the nginx pod.
        assertThat(pair.destination().toString()).startsWith("242.254.2.");
        assertThat(pair.port()).isEqualTo(80);
        assertThat(pair.server()).isEqualTo(HostId.pod("cluster2", "default", "nginx-7d4f"));
        assertThat(pair.serverPort()).isEqualTo(80);
        assertThat(pair.sourceNamespace()).isNotEqualTo(pair.serverNamespace());
    }

    @Test
    void flowsTheSimulatorDoesNotDeliverOrWhoseServerIsTakenAreLeftOutWithWhy() {
        BenchPlan.Pairs found = pairs(Examples.load(Examples.CLIENT_SERVER));

        assertThat(found.pairs()).extracting(BenchPlan.Pair::flow).containsExactly("client1-to-db", "db-to-client1");
        assertThat(found.pairs().get(1).server()).isEqualTo(HostId.pod("client1", "shop", "app"));
        assertThat(found.pairs().get(1).serverPort()).isEqualTo(8080);
        assertThat(found.skipped()).extracting(BenchPlan.Skipped::flow)
                .containsExactly("client2-to-db", "client2-to-shop", "client1-to-client2", "client2-gw-to-client1");
        assertThat(found.skipped().getFirst().reason()).contains("already serves flow client1-to-db", "one test at a time");
        assertThat(found.skipped().get(2).reason()).contains("delivers none of its packets");
    }

    static final String SPREAD_OUT = """
            name: spread-out
            clusters:
              - name: a
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: a-gw, ip: 172.31.1.2, cniIP: 10.1.0.1, gateway: true}
                  - {name: a-worker, ip: 172.31.1.3, cniIP: 10.1.1.1}
                pods:
                  - {name: client, namespace: default, node: a-worker, ip: 10.1.1.10}
                  - {name: neighbour, namespace: default, node: a-worker, ip: 10.1.1.11}
              - name: b
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: b-gw, ip: 172.31.2.2, cniIP: 10.2.0.1, gateway: true}
                  - {name: b-worker, ip: 172.31.2.3, cniIP: 10.2.1.1}
                pods:
                  - {name: web-0, namespace: default, node: b-worker, ip: 10.2.1.10, labels: {app: web}}
                  - {name: web-1, namespace: default, node: b-worker, ip: 10.2.1.11, labels: {app: web}}
                services:
                  - {name: web, namespace: default, clusterIP: 100.2.0.10, selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}
                exports: [default/web]
            flows:
              - {name: to-both-pods, from: a/default/client, to: web.default.svc.clusterset.local:80, protocol: tcp, expect: delivered}
              - {name: next-door, from: a/default/client, to: a/default/neighbour:80, protocol: tcp, expect: delivered}
              - {name: datagrams, from: a/default/client, to: b/default/web-0:5001, protocol: udp, expect: delivered}
              - {name: to-one-pod, from: a/default/client, to: b/default/web-1:8080, protocol: tcp, expect: delivered}
            """;

    @Test
    void aServiceOfSeveralPodsAndAFlowWithinAClusterAreLeftOutAndOtherProtocolsAreNotConsidered() throws Exception {
        BenchPlan.Pairs found = pairs(TopologyLoader.parse(SPREAD_OUT, "spread-out.yaml"));

        assertThat(found.pairs()).extracting(BenchPlan.Pair::flow).containsExactly("to-one-pod");
        assertThat(found.pairs().getFirst().server()).isEqualTo(HostId.pod("b", "default", "web-1"));
        assertThat(found.skipped()).extracting(BenchPlan.Skipped::flow).containsExactly("to-both-pods", "next-door");
        assertThat(found.skipped().get(0).reason()).contains("can end at 2 places", "b/default/web-0:8080", "b/default/web-1:8080", "one pod");
        assertThat(found.skipped().get(1).reason()).contains("stays in cluster a");
        assertThat(found.pairs()).allSatisfy(p -> assertThat(p.bind()).isEqualTo(Optional.of(p.sentFrom())));
    }
}
