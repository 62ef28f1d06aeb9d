package io.periscope.features.lab;

import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KernelGlobalIpsReadTheAddressesTheRulesHold {

    private static final ClusterSetPlan PLAN = Planner.plan(parse("""
            name: legacy
            globalnet: {enabled: true, cidr: 169.254.0.0/16, clusterSize: 256, mode: legacy}
            defaults: {cableDriver: vxlan}
            clusters:
              - name: east
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes: [{name: east-gw, ip: 172.18.1.2, cniIP: 10.244.0.1, gateway: true}]
                pods: [{name: client, node: east-gw, ip: 10.244.0.10}]
              - name: west
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes: [{name: west-gw, ip: 172.18.2.2, cniIP: 10.244.0.1, gateway: true}]
            """));

    private static Map<HostId, List<String>> rules(UnaryOperator<String> edit) {
        Map<HostId, List<String>> rules = new LinkedHashMap<>();
        for (HostPlan host : PLAN.hosts().values()) {
            if (host.role() != HostPlan.HostRole.POD) {
                rules.put(host.id(), KernelGlobalIps.lines(host.effective()).stream().map(edit).toList());
            }
        }
        return rules;
    }

    private static List<Ipv4Address> podIp(KernelGlobalIps.Answer answer) {
        return answer.allocations().cluster("east").orElseThrow().legacyPod("default", "client")
                .map(GlobalIpAllocation::addresses).orElseThrow();
    }

    @Test
    void aKernelAsPlannedGivesThePlannersAddressesAndGlobalCidrs() {
        KernelGlobalIps.Answer answer = KernelGlobalIps.read(PLAN.allocations(), rules(UnaryOperator.identity()), rules(UnaryOperator.identity()));

        assertThat(podIp(answer)).containsExactly(Ipv4Address.parse("169.254.0.254"));
        assertThat(answer.allocations().cluster("west").orElseThrow().globalCidr()).isEqualTo(Ipv4Prefix.parse("169.254.1.0/24"));
        assertThat(answer.fromModel()).isEmpty();
    }

    @Test
    void aRuleTheKernelWroteWithAnotherAddressGivesThatAddress() {
        KernelGlobalIps.Answer answer = KernelGlobalIps.read(PLAN.allocations(), rules(UnaryOperator.identity()),
                rules(line -> line.replace("--to-source 169.254.0.254", "--to-source 169.254.0.200")));

        assertThat(podIp(answer)).containsExactly(Ipv4Address.parse("169.254.0.200"));
    }

    @Test
    void aRuleTheKernelLacksGivesNoAddress() {
        KernelGlobalIps.Answer answer = KernelGlobalIps.read(PLAN.allocations(), rules(UnaryOperator.identity()),
                rules(line -> line.contains("--to-source 169.254.0.254") ? "nat NOWHERE -j ACCEPT" : line));

        assertThat(podIp(answer)).isEmpty();
    }

    @Test
    void aGlobalCidrMarkedDifferentlyIsTheKernels() {
        KernelGlobalIps.Answer answer = KernelGlobalIps.read(PLAN.allocations(), rules(UnaryOperator.identity()),
                rules(line -> line.replace("169.254.1.0/24", "169.254.7.0/24")));

        assertThat(answer.allocations().cluster("west").orElseThrow().globalCidr()).isEqualTo(Ipv4Prefix.parse("169.254.7.0/24"));
    }

    @Test
    void aKernelRuleWithAGlobalIpNoAllocationProgramsFailsTheRead() {
        Map<HostId, List<String>> kernel = rules(UnaryOperator.identity());
        HostId gateway = HostId.node("east", "east-gw");
        List<String> extra = new java.util.ArrayList<>(kernel.get(gateway));
        extra.add("nat SUBMARINER-GN-EGRESS -s 10.244.0.99/32 -j SNAT --to-source 169.254.0.7");
        kernel.put(gateway, extra);

        assertThatThrownBy(() -> KernelGlobalIps.read(PLAN.allocations(), rules(UnaryOperator.identity()), kernel))
                .hasMessageContaining("east/east-gw").hasMessageContaining("--to-source 169.254.0.7");
    }

    private static io.periscope.model.topology.ClusterSet parse(String yaml) {
        try {
            return TopologyLoader.parse(yaml, "legacy.yaml");
        } catch (io.periscope.model.load.TopologyException e) {
            throw new IllegalStateException(e.report(), e);
        }
    }
}
