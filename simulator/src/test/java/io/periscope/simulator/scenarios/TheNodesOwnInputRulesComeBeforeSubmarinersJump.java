package io.periscope.simulator.scenarios;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.HostPlan.HostRole;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream appends the SUBMARINER-INPUT jump to filter INPUT, so a node's own INPUT rules see a
 * packet first: a gateway whose firewall drops UDP 4800 in INPUT drops what the workers send it
 * through vx-submariner, although SUBMARINER-INPUT would accept it. The simulator reads INPUT in that
 * order, the node's rules then Periscope's last ones.
 */
class TheNodesOwnInputRulesComeBeforeSubmarinersJump {

    private static final Rule DROP_VXLAN = Rule.of(new Target.Drop(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4800));

    /** The plan with the gateways of {@code cluster} dropping UDP 4800 in their environment's INPUT. */
    private static ClusterSetPlan gatewaysDropVxlan(ClusterSetPlan plan, String cluster) {
        TreeMap<HostId, HostPlan> hosts = new TreeMap<>(plan.hosts());
        for (HostPlan h : plan.hosts().values()) {
            if (h.id().cluster().equals(cluster) && h.role() == HostRole.GATEWAY) {
                DataplanePlan firewall = new DataplanePlan(List.of(new NetfilterTable(Table.FILTER, List.of(new Chain("INPUT", List.of(DROP_VXLAN))))),
                        List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
                hosts.put(h.id(), new HostPlan(h.id(), h.role(), h.node(), h.interfaces(), h.environment().merge(firewall), h.kubeProxy(),
                        h.submariner()));
            }
        }
        return new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), hosts, plan.segments(), plan.serviceRecords(), plan.allocations(),
                plan.ovn());
    }

    private static FlowTrace clientToNginx(ClusterSetPlan plan) throws Exception {
        return new Simulator(plan).trace(SubmarinersAcceptsKeepCrossClusterTrafficFromTheCniMasquerade.tcp("client-to-nginx-pod",
                "cluster1/default/client", new FlowTarget.PodTarget("cluster2", "default", "nginx-7d4f", 80)));
    }

    @Test
    void aGatewayThatDropsUdp4800InInputDropsWhatItsWorkersSendThroughVxSubmariner() throws Exception {
        ClusterSet set = DocumentedSteps.load("mag-vanilla.yaml");
        ClusterSetPlan plan = Planner.plan(set);
        assertThat(clientToNginx(plan).paths()).isNotEmpty().allSatisfy(path -> assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED));

        FlowTrace trace = clientToNginx(gatewaysDropVxlan(plan, "cluster1"));

        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).isNotEqualTo(Disposition.DELIVERED);
            assertThat(path.forward().getLast().node().cluster()).isEqualTo("cluster1");
            assertThat(path.forward().getLast().steps()).anySatisfy(step -> assertThat(step).isInstanceOfSatisfying(Step.Filter.class, f -> {
                assertThat(f.accepted()).isFalse();
                assertThat(f.rule().chain()).isEqualTo("INPUT");
                assertThat(f.rule().rule()).isEqualTo("-p udp -m udp --dport 4800 -j DROP");
            }));
        });
    }
}
