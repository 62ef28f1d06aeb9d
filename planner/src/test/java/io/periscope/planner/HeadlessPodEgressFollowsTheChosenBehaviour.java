package io.periscope.planner;

import io.periscope.model.topology.Behaviour;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod of an exported headless service in a namespace that a namespace GlobalEgressIP covers: the
 * one place of Globalnet 2.0 where seed 002 and upstream disagree (docs/plan.md, "Where the seeds and
 * upstream disagree"). With {@code behaviour: seeds} (the default) the pod has no rule in
 * SM-GN-EGRESS-HDLS-PODS and falls through to SM-GN-EGRESS-NS; with {@code behaviour: upstream} it has
 * its rule, as upstream's GlobalIngressIP controller writes it for every headless pod, and since
 * SUBMARINER-GN-EGRESS jumps to SM-GN-EGRESS-HDLS-PODS before SM-GN-EGRESS-NS, that rule wins.
 */
class HeadlessPodEgressFollowsTheChosenBehaviour {

    /** West exports the headless service myproject/http (http-0); its namespace has a GlobalEgressIP of one address. */
    private static ClusterSetPlan plan(String behaviourLine) {
        return Planner.plan(PlannedExamples.parse(behaviourLine + """
                name: headless-behaviour
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
                      - {name: api, namespace: myproject, node: west-gw, ip: 10.244.0.30, labels: {app: api}}
                    services:
                      - {name: http, namespace: myproject, headless: true, selector: {app: http}, ports: [{port: 80, targetPort: 80, protocol: TCP}]}
                    exports: [myproject/http]
                    globalEgressIPs:
                      - {name: myproject-ns, namespace: myproject, numberOfIPs: 1}
                """));
    }

    private static DataplanePlan westGateway(ClusterSetPlan plan) {
        return submariner(plan, "west", "west-gw");
    }

    /** The pod's own global IP, read from the DNAT that reaches it. */
    private static String ownGlobalIp(DataplanePlan gateway) {
        return rules(gateway, Table.NAT, "SUBMARINER-GN-INGRESS").stream().filter(r -> r.endsWith("-j DNAT --to-destination 10.244.0.20"))
                .findFirst().orElseThrow().replaceFirst("^-d (\\S+)/32 .*$", "$1");
    }

    @Test
    void withoutTheSettingTheSeedsDecideAndTheNamespacesAddressWins() {
        ClusterSetPlan plan = plan("");
        assertThat(plan.clusterSet().behaviour()).isEqualTo(Behaviour.SEEDS);
        assertThat(rules(westGateway(plan), Table.NAT, "SM-GN-EGRESS-HDLS-PODS")).isEmpty();
        assertThat(rules(westGateway(plan), Table.NAT, "SM-GN-EGRESS-NS")).singleElement().asString().endsWith("-j SNAT --to-source 242.1.255.254");
        assertThat(rules(westGateway(plan("behaviour: seeds\n")), Table.NAT, "SM-GN-EGRESS-HDLS-PODS")).isEmpty();
    }

    @Test
    void withUpstreamBehaviourTheCoveredPodKeepsItsOwnSnatAheadOfTheNamespaces() {
        DataplanePlan gateway = westGateway(plan("behaviour: upstream\n"));
        String own = ownGlobalIp(gateway);
        assertThat(own).isNotEqualTo("242.1.255.254");
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-HDLS-PODS")).containsExactly(
                "-s 10.244.0.20/32 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source " + own);
        // The namespace's rule and ipset are there too, with the pod in it, as upstream programs them:
        // only the jump order decides, and it reaches SM-GN-EGRESS-HDLS-PODS first.
        assertThat(rules(gateway, Table.NAT, "SM-GN-EGRESS-NS")).singleElement().asString().endsWith("-j SNAT --to-source 242.1.255.254");
        assertThat(gateway.ipsets().stream().filter(s -> s.name().startsWith("SM-GN-")).flatMap(s -> s.members().stream())
                .map(Object::toString).toList()).contains("10.244.0.20/32", "10.244.0.30/32");
        List<String> jumps = rules(gateway, Table.NAT, "SUBMARINER-GN-EGRESS");
        assertThat(jumps.indexOf("-j SM-GN-EGRESS-HDLS-PODS")).isLessThan(jumps.indexOf("-j SM-GN-EGRESS-NS"));
    }

    @Test
    void theSettingChangesNothingButTheCoveredPodsRule() {
        DataplanePlan seeds = westGateway(plan("behaviour: seeds\n"));
        DataplanePlan upstream = westGateway(plan("behaviour: upstream\n"));
        for (String chain : List.of("SUBMARINER-GN-INGRESS", "SUBMARINER-GN-EGRESS", "SUBMARINER-GN-MARK", "SM-GN-EGRESS-PODS",
                "SM-GN-EGRESS-HDLS-EPS", "SM-GN-EGRESS-NS", "SM-GN-EGRESS-CLUSTER")) {
            assertThat(rules(upstream, Table.NAT, chain)).as(chain).isEqualTo(rules(seeds, Table.NAT, chain));
        }
        assertThat(upstream.ipsets()).isEqualTo(seeds.ipsets());
    }
}
