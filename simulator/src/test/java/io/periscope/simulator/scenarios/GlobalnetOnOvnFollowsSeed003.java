package io.periscope.simulator.scenarios;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 003's flow: a pod of an OVN-Kubernetes cluster reaches a remote exported service through
 * ovn_cluster_router's reroute policy, submariner_router and the gateway's host (Globalnet's SNAT),
 * and the remote gateway sends it through table 149 and submariner_router (whose load balancer
 * group serves the service) to the pod; the reply takes the same routers back.
 */
class GlobalnetOnOvnFollowsSeed003 {

    static final String TOPOLOGY = """
            name: globalnet-ovn
            globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
            defaults: {cableDriver: vxlan}
            clusters:
              - name: east
                cni: ovn-kubernetes
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes:
                  - {name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}
                  - {name: east-worker, ip: 192.168.10.3, cniIP: 10.244.1.1}
                pods:
                  - {name: web, node: east-worker, ip: 10.244.1.10, labels: {app: web}}
                  - {name: node-agent, namespace: kube-system, node: east-worker, hostNetwork: true}
              - name: west
                cni: ovn-kubernetes
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes:
                  - {name: west-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}
                  - {name: west-worker, ip: 192.168.20.3, cniIP: 10.244.1.1}
                pods:
                  - {name: nginx-1, node: west-worker, ip: 10.244.1.10, labels: {app: nginx}}
                services:
                  - {name: nginx, clusterIP: 10.96.0.50, selector: {app: nginx}, ports: [{port: 8080}]}
                exports: [default/nginx]
            """;

    private static PathTrace onlyPath(String from) throws Exception {
        ClusterSet set = TopologyLoader.parse(TOPOLOGY, "globalnet-ovn.yaml");
        Flow flow = new Flow("f", io.periscope.model.load.FlowEndpointSyntax.parseSource(from), io.periscope.model.load.FlowEndpointSyntax.parseTarget("nginx.default.svc.clusterset.local:8080"), Protocol.TCP,
                Optional.empty());
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(flow);
        System.out.println(TraceText.render(trace));
        assertThat(trace.paths()).singleElement().satisfies(p -> assertThat(p.disposition()).as(TraceText.render(trace))
                .isEqualTo(Disposition.DELIVERED));
        return trace.paths().getFirst();
    }

    private static List<String> nodes(List<Hop> hops) {
        return hops.stream().map(h -> h.node() + h.in().map(i -> " in " + i).orElse("") + h.out().map(o -> " out " + o).orElse("")).toList();
    }

    @Test
    void aPodReachesTheRemoteServiceThroughBothRoutersOfEachClusterAndTheGatewaysHosts() throws Exception {
        PathTrace path = onlyPath("east/default/web");
        assertThat(nodes(path.forward())).containsExactly(
                "east/default/web out eth0",
                "east/ovn_cluster_router in rtos-east-worker out ovn_cluster_subm_lrp",
                "east/submariner_router in submariner_j_lrp out submariner_up_lrp",
                "east/east-gw in ovn-k8s-sub0 out vxlan-tunnel",
                "west/west-gw in vxlan-tunnel out ovn-k8s-sub0",
                "west/submariner_router in submariner_up_lrp out submariner_j_lrp",
                "west/ovn_cluster_router in ovn_cluster_subm_lrp out rtos-west-worker",
                "west/default/nginx-1 in eth0");
        assertThat(nodes(path.reply())).containsExactly(
                "west/default/nginx-1 out eth0",
                "west/ovn_cluster_router in rtos-west-worker out ovn_cluster_subm_lrp",
                "west/submariner_router in submariner_j_lrp out submariner_up_lrp",
                "west/west-gw in ovn-k8s-sub0 out vxlan-tunnel",
                "east/east-gw in vxlan-tunnel out ovn-k8s-sub0",
                "east/submariner_router in submariner_up_lrp out submariner_j_lrp",
                "east/ovn_cluster_router in ovn_cluster_subm_lrp out rtos-east-worker",
                "east/default/web in eth0");
    }

    @Test
    void aHostNetworkPodReachesTheRemoteServiceThroughOvnK8sMp0() throws Exception {
        PathTrace path = onlyPath("east/kube-system/node-agent");
        assertThat(path.forward().getFirst().node()).isEqualTo(HostId.node("east", "east-worker"));
        assertThat(path.forward().getFirst().out()).contains("ovn-k8s-mp0");
        assertThat(path.reply().getLast().in()).contains("ovn-k8s-mp0");
    }
}
