package io.periscope.simulator.scenarios;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.scenarios.DocumentedSteps.lines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway's health-check global IP is its own (upstream keeps it on its Gateway object), so when
 * a single active gateway fails the one that takes the lease publishes another address in its
 * Endpoint and DNATs that one; the failed gateway's address stays held by its Gateway object and
 * nothing answers it. A remote gateway's health-check ping follows the new Endpoint.
 */
class FailoverGivesTheNewGatewayAHealthCheckIp {

    private static final String STANDBY = """
            name: standby
            globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
            clusters:
              - name: east
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
              - name: west
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes:
                  - {name: west-gw-a, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}
                  - {name: west-gw-b, ip: 192.168.20.3, cniIP: 10.244.1.1, gateway: true}
            """;

    private static Optional<Ipv4Address> healthCheckIp(ClusterSetPlan plan, String cluster, String gateway) {
        return plan.endpoints().stream().filter(e -> e.clusterId().equals(cluster) && e.hostname().equals(gateway))
                .findFirst().flatMap(Endpoint::healthCheckIp);
    }

    private static FlowTrace ping(ClusterSetPlan plan, Ipv4Address target) throws Exception {
        Flow ping = new Flow("health-check", new FlowSource.NodeSource("east", "east-gw"), new FlowTarget.AddressTarget(target, 0),
                Protocol.ICMP, Optional.empty());
        return new Simulator(plan).trace(ping);
    }

    @Test
    void theNewGatewayPublishesItsOwnAddressAndAnswersPingsThere() throws Exception {
        ClusterSet set = TopologyLoader.parse(STANDBY, "standby.yaml");
        ClusterSetPlan healthy = Planner.plan(set);
        Ipv4Address before = healthCheckIp(healthy, "west", "west-gw-a").orElseThrow();
        assertThat(healthCheckIp(healthy, "west", "west-gw-b")).as("a standby publishes no Endpoint").isEmpty();

        ClusterSetPlan failedOver = Planner.planWithout(set, List.of("west/west-gw-a"));
        Ipv4Address after = healthCheckIp(failedOver, "west", "west-gw-b").orElseThrow();

        assertThat(before).isEqualTo(Ipv4Address.parse("242.1.255.254"));
        assertThat(after).isEqualTo(Ipv4Address.parse("242.1.255.253"));
        assertThat(failedOver.allocations().gatewayGlobalIp("west", "west-gw-a")).as("still held by the failed gateway's Gateway").contains(before);

        assertThat(ping(failedOver, after).paths()).singleElement().satisfies(path -> {
            assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
            assertThat(lines(path.forward())).contains("west/west-gw-b: dnat SUBMARINER-GN-INGRESS | SRC: "
                    + lines(path.forward()).stream().filter(l -> l.contains(": snat")).findFirst().orElseThrow()
                            .replaceFirst(".*SRC: (\\S+) .*", "$1") + " DST: 10.244.1.1");
        });
    }

    @Test
    void theFailedGatewaysAddressIsAnsweredByNobody() throws Exception {
        ClusterSet set = TopologyLoader.parse(STANDBY, "standby.yaml");
        Ipv4Address before = healthCheckIp(Planner.plan(set), "west", "west-gw-a").orElseThrow();

        FlowTrace trace = ping(Planner.planWithout(set, List.of("west/west-gw-a")), before);

        assertThat(trace.paths()).allSatisfy(path -> {
            assertThat(path.disposition()).isNotEqualTo(Disposition.DELIVERED);
            assertThat(lines(path.forward())).noneMatch(l -> l.contains(": dnat"));
        });
    }
}
