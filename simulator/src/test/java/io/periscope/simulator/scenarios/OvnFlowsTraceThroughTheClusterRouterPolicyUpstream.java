package io.periscope.simulator.scenarios;

import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * examples/globalnet-ovn.yaml with {@code behaviour: upstream}: a pod on a non-gateway node reaches
 * the remote exported service through ovn_cluster_router's reroute policy to the gateway's
 * ovn-k8s-mp0, the gateway's host (Globalnet's SNAT, the cable's table 100) and the cable; at the far
 * end the gateway's table 149 sends it back into OVN through its own ovn-k8s-mp0, and
 * ovn_cluster_router (whose node switch serves clusterLBGroup) takes it to the pod. No
 * submariner_router and no ovn-k8s-sub0 on the way, either way.
 */
class OvnFlowsTraceThroughTheClusterRouterPolicyUpstream {

    private static final Path EXAMPLE = Path.of("..", "examples", "globalnet-ovn.yaml");

    private static ClusterSet upstream(String text) throws Exception {
        return TopologyLoader.parse(text, "globalnet-ovn.yaml").withBehaviour(Behaviour.UPSTREAM);
    }

    private static ClusterSet upstream() throws Exception {
        return upstream(Files.readString(EXAMPLE));
    }

    /** The example with a second gateway in east, standing by while east-gw holds the lease. */
    private static ClusterSet upstreamWithASecondEastGateway() throws Exception {
        return upstream(Files.readString(EXAMPLE).replace(
                "      - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}\n",
                "      - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}\n"
                        + "      - {name: east-gw2, ip: 192.168.10.4, cniIP: 10.244.2.1, gateway: true}\n"));
    }

    private static FlowTrace trace(ClusterSetPlan plan, String from) throws Exception {
        Flow flow = new Flow("f", FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget("nginx.default.svc.clusterset.local:8080"),
                Protocol.TCP, Optional.empty());
        return new Simulator(plan).trace(flow);
    }

    private static PathTrace delivered(ClusterSetPlan plan, String from) throws Exception {
        FlowTrace trace = trace(plan, from);
        assertThat(trace.paths()).singleElement().satisfies(p -> assertThat(p.disposition()).as(TraceText.render(trace))
                .isEqualTo(Disposition.DELIVERED));
        return trace.paths().getFirst();
    }

    private static List<String> nodes(List<Hop> hops) {
        return hops.stream().map(h -> h.node() + h.in().map(i -> " in " + i).orElse("") + h.out().map(o -> " out " + o).orElse("")).toList();
    }

    /** What decided each routing step of the hop: the table (an OVN router's stage) and its entry. */
    private static List<String> routing(Hop hop) {
        return hop.steps().stream().filter(s -> s instanceof Step.Route).map(s -> (Step.Route) s)
                .map(r -> r.table() + ": " + r.route()).toList();
    }

    private static Hop hop(List<Hop> hops, String node) {
        return hops.stream().filter(h -> h.node().toString().equals(node)).findFirst().orElseThrow();
    }

    @Test
    void aPodOnANonGatewayNodeGoesByThePolicyToTheGatewaysManagementPortAndComesInByTable149() throws Exception {
        PathTrace path = delivered(Planner.plan(upstream()), "east/default/web");
        assertThat(nodes(path.forward())).containsExactly(
                "east/default/web out eth0",
                "east/ovn_cluster_router in rtos-east-worker out rtos-east-gw",
                "east/east-gw in ovn-k8s-mp0 out vxlan-tunnel",
                "west/west-gw in vxlan-tunnel out ovn-k8s-mp0",
                "west/ovn_cluster_router in rtos-west-gw out rtos-west-worker",
                "west/default/nginx-1 in eth0");
        assertThat(routing(hop(path.forward(), "east/ovn_cluster_router")))
                .singleElement().asString().startsWith("ovn policy: 20000 ip4.dst == 242.1.0.0/16 reroute 10.244.0.1");
        assertThat(routing(hop(path.forward(), "east/east-gw"))).first().asString().startsWith("100: 242.1.0.0/16 ");
        assertThat(routing(hop(path.forward(), "west/west-gw"))).last().asString()
                .startsWith("149: default via 10.244.0.2 dev ovn-k8s-mp0");
        assertThat(hop(path.forward(), "east/east-gw").steps()).anySatisfy(s -> assertThat(s).isInstanceOfSatisfying(Step.Snat.class,
                snat -> assertThat(snat.rule()).hasValueSatisfying(r -> assertThat(r.toString()).contains("SM-GN-EGRESS-CLUSTER"))));
        // The exported service's global IP: OVN-Kubernetes' PREROUTING DNAT on the gateway, then clusterLBGroup at ovn_cluster_router.
        assertThat(hop(path.forward(), "west/ovn_cluster_router").steps()).anySatisfy(s -> assertThat(s).isInstanceOf(Step.Dnat.class));

        assertThat(nodes(path.reply())).containsExactly(
                "west/default/nginx-1 out eth0",
                "west/ovn_cluster_router in rtos-west-worker out rtos-west-gw",
                "west/west-gw in ovn-k8s-mp0 out vxlan-tunnel",
                "east/east-gw in vxlan-tunnel out ovn-k8s-mp0",
                "east/ovn_cluster_router in rtos-east-gw out rtos-east-worker",
                "east/default/web in eth0");
        assertThat(routing(hop(path.reply(), "west/ovn_cluster_router")))
                .singleElement().asString().startsWith("ovn policy: 20000 ip4.dst == 242.0.0.0/16 reroute 10.244.0.1");
        assertThat(routing(hop(path.reply(), "east/east-gw"))).last().asString()
                .startsWith("149: default via 10.244.0.2 dev ovn-k8s-mp0");
    }

    @Test
    void aHostNetworkPodGoesByTable150IntoOvnAndByThePolicyToTheGateway() throws Exception {
        PathTrace path = delivered(Planner.plan(upstream()), "east/kube-system/node-agent");
        assertThat(nodes(path.forward()).subList(0, 3)).containsExactly(
                "east/east-worker out ovn-k8s-mp0",
                "east/ovn_cluster_router in rtos-east-worker out rtos-east-gw",
                "east/east-gw in ovn-k8s-mp0 out vxlan-tunnel");
        assertThat(routing(path.forward().getFirst())).first().asString().startsWith("150: default via 10.244.1.2 dev ovn-k8s-mp0");
    }

    @Test
    void afterAFailoverThePolicyReroutesToTheNewGatewaysManagementPort() throws Exception {
        ClusterSet set = upstreamWithASecondEastGateway();
        PathTrace path = delivered(Planner.planWithout(set, List.of("east/east-gw")), "east/default/web");
        assertThat(nodes(path.forward()).subList(0, 3)).containsExactly(
                "east/default/web out eth0",
                "east/ovn_cluster_router in rtos-east-worker out rtos-east-gw2",
                "east/east-gw2 in ovn-k8s-mp0 out vxlan-tunnel");
        assertThat(routing(hop(path.forward(), "east/ovn_cluster_router")))
                .singleElement().asString().startsWith("ovn policy: 20000 ip4.dst == 242.1.0.0/16 reroute 10.244.2.1");
        assertThat(nodes(path.reply())).contains("east/east-gw2 in vxlan-tunnel out ovn-k8s-mp0",
                "east/ovn_cluster_router in rtos-east-gw2 out rtos-east-worker");
    }

    @Test
    void withEveryGatewayOfTheSourceClusterFailedTheFlowIsDroppedWithItsReason() throws Exception {
        FlowTrace trace = trace(Planner.planWithout(upstream(), List.of("east/east-gw")), "east/default/web");
        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(TraceText.render(trace)).isNotEqualTo(Disposition.DELIVERED);
            // No GatewayRoute, so no policy: OVN-Kubernetes' own source route sends the packet toward the
            // node's gateway router (outside the model), not to any Submariner gateway.
            assertThat(path.forward().getLast().node().toString()).as(TraceText.render(trace)).isEqualTo("east/ovn_cluster_router");
            assertThat(path.reason()).as(TraceText.render(trace)).hasValueSatisfying(r -> assertThat(r).contains("east/ovn/join"));
        });
    }

    @Test
    void withEveryGatewayOfTheDestinationClusterFailedTheFlowIsDroppedWithItsReason() throws Exception {
        FlowTrace trace = trace(Planner.planWithout(upstream(), List.of("west/west-gw")), "east/default/web");
        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(TraceText.render(trace)).isNotEqualTo(Disposition.DELIVERED);
            // west's Endpoint is gone, and with it east's policy: the packet never reaches east's gateway
            // (left behind, the policy and east-gw's table 150 would send it round in a loop).
            assertThat(nodes(path.forward())).as(TraceText.render(trace)).noneMatch(n -> n.startsWith("east/east-gw"));
            assertThat(path.reason()).as(TraceText.render(trace)).hasValueSatisfying(r -> assertThat(r).contains("east/ovn/join"));
        });
    }
}
