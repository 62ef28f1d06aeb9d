package io.periscope.lab;

import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ObservedAttempt;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.trace.TraceHop;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.CniMasquerade;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.NodeEnvironment;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.RpFilter;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab's side of {@code SubmarinersAcceptsKeepCrossClusterTrafficFromTheCniMasquerade}: clusters
 * whose CNI masquerades pod traffic leaving the pod network ({@code cniMasquerade:
 * outside-pod-cidrs}), real packets compared hop by hop and field by field with the simulator.
 * A pod's connection to a remote pod, and with Globalnet to a remote global address, keeps its
 * addresses through every node of both clusters, because the route agent's ACCEPTs come first; a
 * connection to a node of its own cluster, which no ACCEPT covers, leaves with its node's address;
 * and with the ACCEPTs deleted from the kernel, the CNI's MASQUERADE gives even the cross-cluster
 * connection its node's address (its vx-submariner one, which the other cluster cannot answer), as
 * the simulator of the plan without them says. Before this test the lab did not program the CNI's
 * rules at all ({@code LabBatches.environmentRules} now does), and the simulator lacked the kernel's
 * connected route of vx-submariner's /8, without which the gateway's reverse-path filter dropped what
 * the kernel lets through.
 */
class CniMasqueradeAgreesWithTheKernel {

    private static final String CLIENT = "cluster1/default/client";
    private static final Ipv4Address CLIENT_IP = Ipv4Address.parse("10.1.128.4");

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    static ClusterSet masquerading(ClusterSet set) {
        List<Cluster> clusters = new ArrayList<>();
        for (Cluster c : set.clusters()) {
            clusters.add(new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), c.exports(), c.globalEgressIPs(),
                    new NodeEnvironment(RpFilter.OFF, CniMasquerade.OUTSIDE_POD_CIDRS), c.egressOwnership()));
        }
        return set.withClusters(clusters);
    }

    private static Flow tcp(String name, String from, FlowTarget to) {
        String[] source = from.split("/");
        return new Flow(name, new FlowSource.PodSource(source[0], source[1], source[2]), to, Protocol.TCP, Optional.empty());
    }

    private static final Flow TO_THE_REMOTE_POD = tcp("client-to-nginx-pod", CLIENT, new FlowTarget.PodTarget("cluster2", "default", "nginx-7d4f", 80));
    private static final Flow TO_A_NODE = tcp("client-to-gw-1", CLIENT, new FlowTarget.AddressTarget(Ipv4Address.parse("172.18.0.6"), 10250));

    /** Every connection of the flow matched a simulated path; returns them. */
    private static List<ObservedAttempt> matched(ProbeReport report, String flow) {
        FlowProbeResult result = report.flows().stream().filter(f -> f.name().equals(flow)).findFirst().orElseThrow();
        assertThat(result.problem()).as(flow).isEmpty();
        assertThat(result.attempts()).as(flow).isNotEmpty();
        assertThat(result.matchesSimulation()).as("%s: %s", flow, result.firstDifference().map(d -> d.describe()).orElse("")).isTrue();
        return result.attempts();
    }

    private static Ipv4Address atTheServer(ObservedAttempt attempt) {
        return attempt.observed().forward().getLast().arrive().src();
    }

    private static TraceHop hop(ObservedAttempt attempt, String node) {
        return attempt.observed().forward().stream().filter(h -> h.node().equals(node)).findFirst().orElseThrow();
    }

    @Test
    void crossClusterConnectionsKeepTheirAddressesAndAConnectionToANodeIsMasqueraded() {
        ClusterSet example = masquerading(Examples.load("mag-vanilla.yaml"));
        ClusterSet set = example.withFlows(List.of(TO_THE_REMOTE_POD, TO_A_NODE));
        RunningLab lab = labs.up(RunningLab.forTest(set, "cnimasq"));

        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        assertThat(matched(report, TO_THE_REMOTE_POD.name())).allSatisfy(a -> {
            assertThat(a.outcome().disposition()).isEqualTo("delivered");
            assertThat(hop(a, "cluster1/worker-1").depart().orElseThrow().src()).isEqualTo(CLIENT_IP);
            assertThat(atTheServer(a)).isEqualTo(CLIENT_IP);
        });
        assertThat(matched(report, TO_A_NODE.name())).allSatisfy(a -> {
            assertThat(a.outcome().disposition()).isEqualTo("delivered");
            assertThat(atTheServer(a)).as("the worker's address").isEqualTo(Ipv4Address.parse("172.18.0.10"));
        });
    }

    @Test
    void withGlobalnetOnlyGlobalnetTranslatesAndTheReceivingNodesKeepTheRemoteGlobalSource() {
        ClusterSet set = masquerading(Examples.load(Examples.GLOBALNET_EGRESS));
        RunningLab lab = labs.up(RunningLab.forTest(set, "cnimasq-gn"));

        ProbeReport report = lab.probe(Optional.of("web-to-nginx"), SimulatorFlows::new);

        assertThat(matched(report, "web-to-nginx")).allSatisfy(a -> {
            assertThat(a.outcome().disposition()).isEqualTo("delivered");
            assertThat(hop(a, "east/east-worker").depart().orElseThrow().src()).isEqualTo(Ipv4Address.parse("10.244.1.10"));
            assertThat(atTheServer(a).toString()).as("east's global egress address").startsWith("242.0.");
        });
    }

    @Test
    void withoutTheAcceptsInTheKernelTheCniMasqueradesTheCrossClusterConnection() {
        ClusterSet set = masquerading(Examples.load("mag-vanilla.yaml")).withFlows(List.of(TO_THE_REMOTE_POD));
        // No supervisor: nothing puts the deleted rules back.
        RunningLab lab = labs.upWithoutSupervisor(RunningLab.forTest(set, "cnimasq-noaccept"));
        int deleted = 0;
        for (HostNamespace node : lab.layout().nodes()) {
            if (!node.host().cluster().equals("cluster1")) {
                continue;
            }
            for (String rule : lab.inNamespace(node.namespace(), "iptables", "-t", "nat", "-S", "SUBMARINER-POSTROUTING").split("\n")) {
                if (rule.startsWith("-A SUBMARINER-POSTROUTING ") && rule.endsWith("-j ACCEPT")) {
                    List<String> argv = new ArrayList<>(List.of("iptables", "-t", "nat", "-D"));
                    argv.addAll(List.of(rule.substring(3).split(" ")));
                    lab.inNamespace(node.namespace(), argv.toArray(String[]::new));
                    deleted++;
                }
            }
        }
        assertThat(deleted).as("ACCEPTs deleted from cluster1's nodes").isPositive();

        ProbeReport report = lab.probe(Optional.empty(), plan -> new SimulatorFlows(withoutTheAccepts(plan, "cluster1")));

        assertThat(matched(report, TO_THE_REMOTE_POD.name())).allSatisfy(a -> {
            Ipv4Address masqueraded = hop(a, "cluster1/worker-1").depart().orElseThrow().src();
            assertThat(masqueraded).as("the source leaving the client's node: its vx-submariner address").isEqualTo(Ipv4Address.parse("240.18.0.10"));
            assertThat(atTheServer(a)).isEqualTo(masqueraded);
            // The answer to 240.18.0.10 stays in cluster2's own vx-submariner network, where nobody has it.
            assertThat(a.outcome().disposition()).isNotEqualTo("delivered");
        });
    }

    /** The plan with the route agent's nat SUBMARINER-POSTROUTING ACCEPTs left out on the cluster's nodes, as the test deleted them. */
    static ClusterSetPlan withoutTheAccepts(ClusterSetPlan plan, String cluster) {
        TreeMap<HostId, HostPlan> hosts = new TreeMap<>(plan.hosts());
        for (HostPlan h : plan.hosts().values()) {
            if (!h.id().cluster().equals(cluster) || h.id().isPod()) {
                continue;
            }
            DataplanePlan s = h.submariner();
            List<NetfilterTable> tables = s.netfilter().stream().map(t -> t.table() != Table.NAT ? t : new NetfilterTable(t.table(),
                    t.chains().stream().map(c -> !c.name().equals("SUBMARINER-POSTROUTING") ? c : new Chain(c.name(),
                            c.rules().stream().filter(r -> !(r.target() instanceof Target.Accept)).toList())).toList())).toList();
            hosts.put(h.id(), new HostPlan(h.id(), h.role(), h.node(), h.interfaces(), h.environment(), h.kubeProxy(),
                    new DataplanePlan(tables, s.ipsets(), s.vxlanDevices(), s.fdb(), s.neighbours(), s.nexthops(), s.nexthopGroups(),
                            s.routes(), s.rules(), s.sysctls(), s.wireGuardDevices(), s.ipsecConnections())));
        }
        return new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), hosts, plan.segments(), plan.serviceRecords(), plan.allocations(),
                plan.ovn());
    }
}
