package io.periscope.planner;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.NodeLink;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Names;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.routing.Nexthop;
import org.junit.jupiter.api.Test;

import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's default interface and MTU, as the file states them (or, on a real node, as its agent
 * discovers them): the plan names the device after it everywhere it used to say eth0, gives it the
 * MTU, and derives each VXLAN device's MTU from it the way upstream does, 50 bytes less. Nodes that
 * state nothing plan exactly as before.
 */
class PlansUseTheNodesInterfaceAndMtu {

    private static final String FILE = """
            name: jumbo
            defaults: {cableDriver: vxlan}
            clusters:
              - name: east
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                multiActiveGateways: true
                nodes:
                  - {name: gw-1, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true, interface: ens5, mtu: 9001}
                  - {name: gw-2, ip: 172.20.1.4, cniIP: 10.1.64.1, gateway: true}
                  - {name: worker, ip: 172.20.1.3, cniIP: 10.1.128.1, interface: ens5, mtu: 9001}
                pods:
                  - {name: client, node: worker, ip: 10.1.128.10}
              - name: west
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}
            flows:
              - {name: big, from: east/default/client, to: 10.2.0.10, protocol: icmp, size: 8000}
            """;

    private static HostPlan host(ClusterSetPlan plan, String cluster, String node) {
        return plan.host(HostId.node(cluster, node)).orElseThrow();
    }

    private static Interface iface(HostPlan host, String name) {
        return host.interfaces().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
    }

    private static VxlanDevice vxlan(HostPlan host, String name) {
        return host.submariner().vxlanDevices().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theFileReadsTheInterfaceTheMtuAndAFlowsSize() throws Exception {
        ClusterSet set = TopologyLoader.parse(FILE, "jumbo.yaml");
        assertThat(set.requireCluster("east").requireNode("gw-1").link()).isEqualTo(NodeLink.of("ens5", 9001));
        assertThat(set.requireCluster("east").requireNode("gw-2").link()).isEqualTo(NodeLink.UNSTATED);
        assertThat(set.flow("big").map(Flow::size)).contains(OptionalInt.of(8000));
    }

    @Test
    void theNamedInterfaceReplacesEth0AndCarriesTheMtu() throws Exception {
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(FILE, "jumbo.yaml"));
        HostPlan worker = host(plan, "east", "worker");

        assertThat(worker.interfaces()).extracting(Interface::name).contains("ens5").doesNotContain("eth0");
        assertThat(iface(worker, "ens5").mtu()).isEqualTo(9001);
        assertThat(vxlan(worker, "vx-submariner").underlay()).as("upstream binds the device to no interface").isEmpty();
        assertThat(vxlan(worker, "vx-submariner").mtu()).as("upstream: the default interface's MTU minus 50").isEqualTo(8951);
        assertThat(worker.environment().routes()).flatExtracting(r -> r.nexthops()).extracting(Nexthop::device)
                .doesNotContain("eth0");
        assertThat(iface(plan.host(HostId.pod("east", "default", "client")).orElseThrow(), "eth0").mtu())
                .as("the pod's veth gets its node's MTU").isEqualTo(9001);
    }

    @Test
    void aGatewaysCableAndItsMultiActiveSnatUseItsInterface() throws Exception {
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(FILE, "jumbo.yaml"));
        HostPlan gw1 = host(plan, "east", "gw-1");

        assertThat(vxlan(gw1, "vxlan-tunnel").mtu()).isEqualTo(8951);
        assertThat(iface(gw1, "wan0").mtu()).as("the lab's WAN device stands for the same interface").isEqualTo(9001);
        assertThat(gw1.submariner().table(io.periscope.plan.netfilter.Table.NAT).orElseThrow().chains().stream()
                .flatMap(c -> c.rules().stream()).map(IptablesSyntax::rule).filter(r -> r.contains("-m mark") && r.contains("-j SNAT --to-source 10.1.0.1")))
                .singleElement().asString().contains("-o ens5");
    }

    @Test
    void nodesThatStateNothingPlanAsBefore() throws Exception {
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse(FILE, "jumbo.yaml"));
        HostPlan gw2 = host(plan, "east", "gw-2");

        assertThat(iface(gw2, "eth0").mtu()).isEqualTo(Interface.DEFAULT_MTU);
        assertThat(vxlan(gw2, "vx-submariner").mtu()).isEqualTo(Names.VXLAN_MTU);
        assertThat(vxlan(host(plan, "west", "gw"), "vxlan-tunnel").mtu()).isEqualTo(1450);
        assertThat(vxlan(gw2, "vx-submariner").underlay()).isEmpty();
    }

    @Test
    void globalnetsForcedMssFollowsTheStatedMtu() throws Exception {
        ClusterSetPlan plan = Planner.plan(TopologyLoader.parse("""
                name: jumbo-globalnet
                globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
                defaults: {cableDriver: vxlan}
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [100.1.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true, interface: ens5, mtu: 9001}
                      - {name: worker, ip: 172.20.1.3, cniIP: 10.1.128.1}
                  - name: west
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [100.1.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.2.2, cniIP: 10.1.0.1, gateway: true}
                """, "jumbo-globalnet.yaml"));

        java.util.function.Function<HostPlan, java.util.List<String>> setMss = host -> host.submariner()
                .table(io.periscope.plan.netfilter.Table.MANGLE).orElseThrow().chains().stream().flatMap(c -> c.rules().stream())
                .map(IptablesSyntax::rule).filter(r -> r.contains("--set-mss")).toList();
        assertThat(setMss.apply(host(plan, "east", "gw"))).isNotEmpty().allSatisfy(r -> assertThat(r).endsWith("--set-mss 8951"));
        assertThat(setMss.apply(host(plan, "east", "worker"))).isNotEmpty().allSatisfy(r -> assertThat(r).endsWith("--set-mss 1450"));
    }
}
