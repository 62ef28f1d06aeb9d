package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/** Golden checks of examples/globalnet-egress.yaml against seed 002 and upstream's chain layout. */
class GlobalnetEgressPlanFollowsSeed002 {

    private final ClusterSetPlan plan = PlannedExamples.plan("globalnet-egress.yaml");

    @Test
    void egressChainsRunInPrecedenceOrderAfterTheMark() {
        DataplanePlan gateway = submariner(plan, "east", "east-gw");
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-POSTROUTING")).first().isEqualTo("-j SUBMARINER-GN-EGRESS");
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-GN-EGRESS")).containsExactly(
                "-j SUBMARINER-GN-MARK", "-j SM-GN-EGRESS-PODS", "-j SM-GN-EGRESS-HDLS-PODS", "-j SM-GN-EGRESS-HDLS-EPS", "-j SM-GN-EGRESS-NS",
                "-j SM-GN-EGRESS-CLUSTER");
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-GN-MARK"))
                .containsExactly("-d 242.1.0.0/16 -j MARK --set-xmark 0xc0000/0xc0000");
    }

    @Test
    void namespaceAndPodSelectorEgressMatchIpsetsOfTheSelectedPods() {
        DataplanePlan gateway = submariner(plan, "east", "east-gw");
        // Upstream's names (getIPSetName): SM-GN- and 25 characters of base32(sha256("namespace/name")),
        // computed here with Python's hashlib/base64, and no comment: upstream's rules carry none.
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-NS")).containsExactly(
                "-m mark --mark 0xc0000/0xc0000 -m set --match-set SM-GN-7UWIRC3FINK6KY6B64K2JXSSZ src -j SNAT --to-source 242.0.255.254");
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-PODS")).containsExactly(
                "-m mark --mark 0xc0000/0xc0000 -m set --match-set SM-GN-KOSF2JYAXQXSCLY3CSZKA232H src -j SNAT --to-source 242.0.0.9-242.0.0.10");
        IpSet nsSet = gateway.ipsets().stream().filter(s -> s.name().equals("SM-GN-7UWIRC3FINK6KY6B64K2JXSSZ")).findFirst().orElseThrow();
        assertThat(nsSet.type()).isEqualTo(IpSetType.HASH_NET);
        assertThat(nsSet.members()).extracting(Object::toString).containsExactly("10.244.1.11/32", "10.244.1.12/32");
        IpSet podSet = gateway.ipsets().stream().filter(s -> s.name().equals("SM-GN-KOSF2JYAXQXSCLY3CSZKA232H")).findFirst().orElseThrow();
        assertThat(podSet.type()).isEqualTo(IpSetType.HASH_NET);
        assertThat(podSet.members()).extracting(Object::toString).containsExactly("10.244.1.12/32");
    }

    @Test
    void clusterEgressCoversThePodAndTheServiceCidr() {
        // Upstream's ClusterGlobalEgressIP controller SNATs from every local subnet: the service CIDR too.
        assertThat(rules(submariner(plan, "east", "east-gw"), Table.NAT, "SM-GN-EGRESS-CLUSTER")).containsExactly(
                "-s 10.244.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.0.0.1-242.0.0.8",
                "-s 10.96.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.0.0.1-242.0.0.8");
    }

    @Test
    void theHeadlessEndpointsChainExistsEmptyBetweenHeadlessPodsAndNamespaces() {
        // A topology's headless endpoints are all pods, so upstream's chain for endpoints without a pod has no rule.
        assertThat(submariner(plan, "west", "west-gw").table(Table.NAT).flatMap(t -> t.chain("SM-GN-EGRESS-HDLS-EPS"))).isPresent();
        assertThat(rules(submariner(plan, "west", "west-gw"), Table.NAT, "SM-GN-EGRESS-HDLS-EPS")).isEmpty();
    }

    @Test
    void globalnetGatewaysProbeThePathMtuAsUpstreamDoes() {
        assertThat(submariner(plan, "east", "east-gw").sysctls())
                .containsEntry("net.ipv4.tcp_mtu_probing", "2").containsEntry("net.ipv4.tcp_base_mss", "1024");
        // Only the gateway: upstream's gateway monitor sets them when its node becomes the gateway.
        assertThat(submariner(plan, "east", "east-worker").sysctls()).doesNotContainKeys("net.ipv4.tcp_mtu_probing", "net.ipv4.tcp_base_mss");
    }

    @Test
    void headlessPodsAreDnatedOnIngressAndUseTheirOwnAddressOnEgress() {
        DataplanePlan gateway = submariner(plan, "west", "west-gw");
        // The gateway's own health-check DNAT first (Periscope's order; upstream's controllers race), then the pods'.
        assertThat(rules(gateway, Table.NAT, "SUBMARINER-GN-INGRESS")).containsExactly(
                "-d 242.1.255.251/32 -p icmp -j DNAT --to-destination 10.244.0.1",
                "-d 242.1.255.253/32 -j DNAT --to-destination 10.244.1.20",
                "-d 242.1.255.252/32 -j DNAT --to-destination 10.244.0.21");
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-HDLS-PODS")).hasSize(2)
                .allMatch(r -> r.matches("-s 10\\.244\\.\\d+\\.\\d+/32 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242\\.1\\.255\\.\\d+"));
        assertThat(plan.serviceRecords()).extracting(r -> r.pod().orElse("-")).contains("http-0", "http-1");
    }
}
