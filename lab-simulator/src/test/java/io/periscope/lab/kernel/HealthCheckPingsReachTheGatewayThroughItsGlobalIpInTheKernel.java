package io.periscope.lab.kernel;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's gateway health check with real packets: a gateway pings a remote gateway at the
 * healthCheckIP of its Endpoint, with Globalnet the remote node's own global IP. The kernel of the
 * remote gateway DNATs the echo request to its CNI address ({@code SUBMARINER-GN-INGRESS -d <global
 * IP>/32 -p icmp -j DNAT --to-destination <CNI IP>}) and answers it, and the reply makes it back to
 * {@code ping} (conntrack undoes the DNAT there and the SNAT on the pinging gateway). The lab's probe
 * of the same ping agrees hop by hop with the simulator
 * ({@code HealthCheckPingsReachTheGatewayThroughItsGlobalIp}).
 */
class HealthCheckPingsReachTheGatewayThroughItsGlobalIpInTheKernel {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    /** The example with one health-check ping per pair, as flows the probe compares with the simulator. */
    private static ClusterSet withPings(String example, String test, List<String[]> pairs) {
        ClusterSet set = Examples.load(example);
        ClusterSetPlan plan = Planner.plan(set);
        List<Flow> flows = new ArrayList<>();
        for (String[] pair : pairs) {
            String[] from = pair[0].split("/");
            String[] to = pair[1].split("/");
            flows.add(new Flow(from[1] + "-pings-" + to[1], new FlowSource.NodeSource(from[0], from[1]),
                    new FlowTarget.AddressTarget(healthCheckIp(plan, to[0], to[1]), 0), Protocol.ICMP, Optional.of(Disposition.DELIVERED)));
        }
        ClusterSet pinging = new ClusterSet(set.name(), set.globalnet(), set.defaultCableDriver(), set.clusters(), set.connectivityPolicies(),
                set.connectionPolicies(), flows);
        return RunningLab.forTest(pinging, test);
    }

    private static Ipv4Address healthCheckIp(ClusterSetPlan plan, String cluster, String gateway) {
        return plan.endpoints().stream().filter(e -> e.clusterId().equals(cluster) && e.hostname().equals(gateway)).findFirst()
                .flatMap(Endpoint::healthCheckIp).orElseThrow();
    }

    private static String namespace(RunningLab lab, String clusterSlashNode) {
        String[] parts = clusterSlashNode.split("/");
        return lab.layout().requireHost(HostId.node(parts[0], parts[1])).namespace();
    }

    /** The packets the rule counted, from {@code iptables-save -c}: {@code [packets:bytes] -A CHAIN rule}. */
    private static long counted(RunningLab lab, String clusterSlashNode, String chain, String rule) {
        String saved = lab.inNamespace(namespace(lab, clusterSlashNode), "iptables-save", "-c", "-t", "nat");
        return Arrays.stream(saved.split("\n")).filter(l -> l.endsWith("-A " + chain + " " + rule)).findFirst()
                .map(l -> Long.parseLong(l.substring(1, l.indexOf(':')))).orElseThrow(() -> new AssertionError(
                        clusterSlashNode + " has no rule '-A " + chain + " " + rule + "':\n" + saved));
    }

    private static void pingsAnsweredAndAgreeingWithTheSimulator(RunningLab lab, List<String[]> pairs) {
        ClusterSetPlan plan = lab.plan();
        for (String[] pair : pairs) {
            String[] to = pair[1].split("/");
            Ipv4Address target = healthCheckIp(plan, to[0], to[1]);
            String cni = plan.clusterSet().requireCluster(to[0]).requireNode(to[1]).cniIp().toString();
            String rule = "-d " + target + "/32 -p icmp -j DNAT --to-destination " + cni;
            long before = counted(lab, pair[1], "SUBMARINER-GN-INGRESS", rule);

            // ping exits 0 only when the echo reply came back to its socket, translated back both ways.
            lab.inNamespace(namespace(lab, pair[0]), "ping", "-c", "1", "-W", "2", target.toString());

            assertThat(counted(lab, pair[1], "SUBMARINER-GN-INGRESS", rule)).as("%s's DNAT of %s", pair[1], target).isEqualTo(before + 1);
            String tracked = lab.inNamespace(namespace(lab, pair[1]), "conntrack", "-L", "-p", "icmp", "--orig-dst", target.toString());
            assertThat(tracked).as("%s's conntrack: the reply comes from the CNI address", pair[1]).contains("src=" + cni);
        }

        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);
        assertThat(report.flows()).hasSize(pairs.size()).allSatisfy((FlowProbeResult flow) -> {
            assertThat(flow.matchesSimulation()).as("%s: %s %s", flow.name(), flow.problem(), flow.firstDifference()).isTrue();
            assertThat(flow.attempts()).allSatisfy(a -> assertThat(a.observed().disposition()).isEqualTo("delivered"));
        });
    }

    @Test
    void aSingleGatewayAnswersThePingAtItsGlobalIp() {
        List<String[]> pairs = List.<String[]>of(new String[]{"east/east-gw", "west/west-gw"}, new String[]{"west/west-gw", "east/east-gw"});
        RunningLab lab = labs.up(withPings(Examples.GLOBALNET_EGRESS, "gwip", pairs));

        pingsAnsweredAndAgreeingWithTheSimulator(lab, pairs);
    }

    @Test
    void eachOfSeveralActiveGatewaysAnswersAtItsOwnGlobalIp() {
        List<String[]> pairs = List.<String[]>of(new String[]{"cluster1/gw-1", "cluster2/gw-3"}, new String[]{"cluster1/gw-1", "cluster2/gw-4"},
                new String[]{"cluster1/gw-2", "cluster2/gw-3"}, new String[]{"cluster2/gw-4", "cluster1/gw-2"});
        RunningLab lab = labs.up(withPings(Examples.MAG_GLOBALNET, "gwipmag", pairs));

        pingsAnsweredAndAgreeingWithTheSimulator(lab, pairs);
    }
}
