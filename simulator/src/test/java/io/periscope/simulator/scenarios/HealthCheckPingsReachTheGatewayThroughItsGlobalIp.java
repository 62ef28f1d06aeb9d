package io.periscope.simulator.scenarios;

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
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.scenarios.DocumentedSteps.lines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's gateway health check: a gateway pings each remote Endpoint's healthCheckIP, with
 * Globalnet the remote gateway's own global IP. The ping leaves the pinging gateway from its CNI
 * address and is SNATed to a ClusterGlobalEgressIP like any host traffic to a remote cluster; the
 * remote gateway DNATs it ({@code SUBMARINER-GN-INGRESS -d <global IP>/32 -p icmp -j DNAT
 * --to-destination <CNI IP>}) to its own CNI address and answers it. The lab's
 * {@code HealthCheckPingsReachTheGatewayThroughItsGlobalIpInTheKernel} sends the same ping.
 */
class HealthCheckPingsReachTheGatewayThroughItsGlobalIp {

    private static FlowTrace ping(ClusterSetPlan plan, String fromCluster, String fromNode, Ipv4Address target, Protocol protocol)
            throws Exception {
        Flow ping = new Flow("health-check", new FlowSource.NodeSource(fromCluster, fromNode),
                new FlowTarget.AddressTarget(target, protocol == Protocol.ICMP ? 0 : 80), protocol, Optional.empty());
        return new Simulator(plan).trace(ping);
    }

    private static Ipv4Address healthCheckIp(ClusterSetPlan plan, String cluster, String gateway) {
        return plan.endpoints().stream().filter(e -> e.clusterId().equals(cluster) && e.hostname().equals(gateway)).findFirst()
                .orElseThrow().healthCheckIp().orElseThrow();
    }

    private static List<String> natAndDelivery(PathTrace path) {
        return lines(path.forward()).stream().filter(l -> l.contains(": snat") || l.contains(": dnat") || l.contains(": deliver")).toList();
    }

    @Test
    void theRemoteGatewayDnatsThePingToItsCniAddressAndAnswersIt() throws Exception {
        ClusterSetPlan plan = Planner.plan(DocumentedSteps.load("globalnet-egress.yaml"));
        Ipv4Address westGw = healthCheckIp(plan, "west", "west-gw");
        assertThat(westGw).isEqualTo(Ipv4Address.parse("242.1.255.251"));

        FlowTrace trace = ping(plan, "east", "east-gw", westGw, Protocol.ICMP);

        assertThat(trace.paths()).singleElement().satisfies(path -> {
            assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
            List<String> steps = natAndDelivery(path);
            assertThat(steps).hasSize(3);
            assertThat(steps.get(0)).matches("east/east-gw: snat SM-GN-EGRESS-CLUSTER \\| SRC: 242\\.0\\.0\\.[1-8] DST: 242\\.1\\.255\\.251");
            String egressIp = steps.get(0).replaceFirst(".*SRC: (\\S+) .*", "$1");
            assertThat(steps.subList(1, 3)).containsExactly(
                    "west/west-gw: dnat SUBMARINER-GN-INGRESS | SRC: " + egressIp + " DST: 10.244.0.1",
                    "west/west-gw: deliver | SRC: " + egressIp + " DST: 10.244.0.1");
        });
    }

    @Test
    void onlyIcmpIsDnatedToTheGateway() throws Exception {
        ClusterSetPlan plan = Planner.plan(DocumentedSteps.load("globalnet-egress.yaml"));

        FlowTrace trace = ping(plan, "east", "east-gw", healthCheckIp(plan, "west", "west-gw"), Protocol.TCP);

        assertThat(trace.paths()).allSatisfy(path -> {
            assertThat(path.disposition()).isNotEqualTo(Disposition.DELIVERED);
            assertThat(lines(path.forward())).noneMatch(l -> l.contains(": dnat"));
        });
    }

    @Test
    void withMultipleActiveGatewaysEachIsReachedAtItsOwnGlobalIpFromEitherRemoteGateway() throws Exception {
        ClusterSet set = DocumentedSteps.load("mag-globalnet.yaml");
        ClusterSetPlan plan = Planner.plan(set);

        for (String from : List.of("gw-1", "gw-2")) {
            for (String to : List.of("gw-3", "gw-4")) {
                Ipv4Address target = healthCheckIp(plan, "cluster2", to);
                Ipv4Address cni = set.requireCluster("cluster2").requireNode(to).cniIp();

                FlowTrace trace = ping(plan, "cluster1", from, target, Protocol.ICMP);

                // One path: the metric-98 route to the gateway's own global IP wins over the
                // cluster's multipath route, whose other choice would have no DNAT for it.
                assertThat(trace.paths()).as("%s to %s", from, to).singleElement().satisfies(path -> {
                    assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
                    assertThat(natAndDelivery(path)).last().asString().isEqualTo("cluster2/" + to + ": deliver | SRC: "
                            + natAndDelivery(path).getFirst().replaceFirst(".*SRC: (\\S+) .*", "$1") + " DST: " + cni);
                    assertThat(natAndDelivery(path)).anyMatch(l -> l.startsWith("cluster2/" + to + ": dnat SUBMARINER-GN-INGRESS"));
                });
            }
        }
    }
}
