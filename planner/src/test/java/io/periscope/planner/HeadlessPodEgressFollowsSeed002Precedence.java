package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 002, "Proposal", Headless Services: a headless pod leaves with its own global IP unless a
 * GlobalEgressIP matches its namespace or the pod itself. The jump order stays upstream's
 * (HDLS-PODS before NS), so a covered pod simply has no rule in SM-GN-EGRESS-HDLS-PODS.
 */
class HeadlessPodEgressFollowsSeed002Precedence {

    /** West exports the headless service myproject/http (http-0, http-1); api is a plain pod of the same namespace. */
    private static ClusterSetPlan plan(String westEgressIPs) {
        return Planner.plan(PlannedExamples.parse("""
                name: headless-precedence
                globalnet: {enabled: true, cidr: 242.0.0.0/8, clusterSize: 65536}
                clusters:
                  - name: east
                    podCIDRs: [10.244.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
                  - name: west
                    podCIDRs: [10.244.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: west-gw, ip: 192.168.20.2, cniIP: 10.244.0.1, gateway: true}]
                    pods:
                      - {name: http-0, namespace: myproject, node: west-gw, ip: 10.244.0.20, labels: {app: http}}
                      - {name: http-1, namespace: myproject, node: west-gw, ip: 10.244.0.21, labels: {app: http}}
                      - {name: api, namespace: myproject, node: west-gw, ip: 10.244.0.30, labels: {app: api}}
                    services:
                      - {name: http, namespace: myproject, headless: true, selector: {app: http}, ports: [{port: 80, targetPort: 80, protocol: TCP}]}
                    exports: [myproject/http]
                """ + westEgressIPs));
    }

    private static DataplanePlan westGateway(ClusterSetPlan plan) {
        return submariner(plan, "west", "west-gw");
    }

    private static List<String> ipsetMembers(DataplanePlan gateway, String name) {
        IpSet set = gateway.ipsets().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
        return set.members().stream().map(Object::toString).toList();
    }

    @Test
    void withoutAnyGlobalEgressIpAHeadlessPodLeavesWithItsOwnIngressIp() {
        DataplanePlan gateway = westGateway(plan(""));
        // The headless pods' DNATs, after the gateway's own health-check DNAT.
        List<String> ingress = rules(gateway, Table.NAT, "SUBMARINER-GN-INGRESS").stream().filter(r -> !r.contains("-p icmp")).toList();
        assertThat(ingress).hasSize(2);
        List<String> headless = rules(gateway, Table.NAT, "SM-GN-EGRESS-HDLS-PODS");
        assertThat(headless).hasSize(2);
        for (String podIp : List.of("10.244.0.20", "10.244.0.21")) {
            // The address the pod is reached at (its DNAT) is the one it leaves with (its SNAT).
            String ip = ingress.stream().filter(r -> r.endsWith("-j DNAT --to-destination " + podIp)).findFirst().orElseThrow()
                    .replaceFirst("^-d (\\S+)/32 .*$", "$1");
            assertThat(headless).filteredOn(r -> r.startsWith("-s " + podIp + "/32 ")).singleElement().asString()
                    .endsWith("-j SNAT --to-source " + ip);
        }
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-NS")).isEmpty();
    }

    @Test
    void aNamespaceGlobalEgressIpWinsOverAHeadlessPodsOwnIp() {
        DataplanePlan gateway = westGateway(plan("""
                    globalEgressIPs:
                      - {name: myproject-ns, namespace: myproject, numberOfIPs: 1}
                """));
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-HDLS-PODS")).isEmpty();
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-NS")).singleElement().asString()
                .isEqualTo("-m mark --mark 0xc0000/0xc0000 -m set --match-set SM-GN-KKS7BTRXU25X5KSG5NAEPXWYQ src -j SNAT --to-source 242.1.255.254");
        assertThat(ipsetMembers(gateway, "SM-GN-KKS7BTRXU25X5KSG5NAEPXWYQ")).containsExactly("10.244.0.20/32", "10.244.0.21/32", "10.244.0.30/32");
        // The pods keep their own global IPs for ingress.
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-GN-INGRESS")).filteredOn(r -> !r.contains("-p icmp")).hasSize(2)
                .anyMatch(r -> r.endsWith("-j DNAT --to-destination 10.244.0.20"))
                .anyMatch(r -> r.endsWith("-j DNAT --to-destination 10.244.0.21"));
        // The jump order is still upstream's: the NS chain is reached because HDLS-PODS has no rule for the pods.
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-GN-EGRESS")).containsExactly(
                "-j SUBMARINER-GN-MARK", "-j SM-GN-EGRESS-PODS", "-j SM-GN-EGRESS-HDLS-PODS", "-j SM-GN-EGRESS-HDLS-EPS", "-j SM-GN-EGRESS-NS",
                "-j SM-GN-EGRESS-CLUSTER");
    }

    @Test
    void aPodSelectorGlobalEgressIpStillWinsOverAHeadlessPodsOwnIp() {
        DataplanePlan gateway = westGateway(plan("""
                    globalEgressIPs:
                      - {name: http-pods, namespace: myproject, podSelector: {matchLabels: {app: http}}, numberOfIPs: 1}
                """));
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-PODS")).singleElement().asString()
                .isEqualTo("-m mark --mark 0xc0000/0xc0000 -m set --match-set SM-GN-R7TDBYO36KZWAP4Q7CK7HIAOL src -j SNAT --to-source 242.1.255.254");
        assertThat(ipsetMembers(gateway, "SM-GN-R7TDBYO36KZWAP4Q7CK7HIAOL")).containsExactly("10.244.0.20/32", "10.244.0.21/32");
        // SM-GN-EGRESS-PODS comes first, so the pods' own rules behind it are never reached for them.
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-GN-EGRESS").indexOf("-j SM-GN-EGRESS-PODS"))
                .isLessThan(rules(gateway, Table.NAT, "SUBMARINER-GN-EGRESS").indexOf("-j SM-GN-EGRESS-HDLS-PODS"));
    }

    @Test
    void aNamespaceGlobalEgressIpWithoutAddressesLeavesTheHeadlessPodsTheirOwnIp() {
        DataplanePlan gateway = westGateway(plan("""
                    globalEgressIPs:
                      - {name: myproject-ns, namespace: myproject, numberOfIPs: 0}
                """));
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-NS")).isEmpty();
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-HDLS-PODS")).hasSize(2);
    }

    @Test
    void anotherNamespacesGlobalEgressIpLeavesTheHeadlessPodsTheirOwnIp() {
        DataplanePlan gateway = westGateway(plan("""
                    globalEgressIPs:
                      - {name: other-ns, namespace: other, numberOfIPs: 1}
                """));
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-NS")).hasSize(1);
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-HDLS-PODS")).hasSize(2);
    }
}
