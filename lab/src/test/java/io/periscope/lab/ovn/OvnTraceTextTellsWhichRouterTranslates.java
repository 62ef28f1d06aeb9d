package io.periscope.lab.ovn;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router of an {@code ovn-trace} whose own stages rewrite addresses through conntrack (a load
 * balancer's {@code ct_lb_mark}, a reply's {@code ct_dnat} in {@code lr_out_undnat}) is where a probe
 * places the change it saw between the packet entering OVN and leaving it; a switch's conntrack and
 * a router that only routes translate nothing.
 */
class OvnTraceTextTellsWhichRouterTranslates {

    private static final Set<String> ROUTERS = Set.of("ovn_cluster_router", "submariner_router");

    @Test
    void theLoadBalancingRouterTranslatesAndTheOneBeforeItDoesNot() {
        String trace = String.join("\n",
                "ingress(dp=\"submariner_gateway\", inport=\"submariner_localnet\")",
                " 6. ls_in_pre_stateful (northd.c:6037): ip, priority 100, uuid 0a1b2c3d",
                "    ct_next;",
                "ingress(dp=\"submariner_router\", inport=\"submariner_up_lrp\")",
                " 0. lr_in_admission (northd.c:11871): eth.dst == 02:06:a9:fe:fe:09 && inport == \"submariner_up_lrp\", priority 50, uuid 1a2b3c4d",
                "    next;",
                " 7. lr_in_dnat (northd.c:10734): ct.new && !ct.rel && ip4 && ip4.dst == 10.96.0.50 && tcp && tcp.dst == 8080, priority 120, uuid 5e6f7a8b",
                "    ct_lb_mark(backends=10.244.1.10:8080);",
                "13. lr_in_ip_routing (northd.c:10100): ip4.dst == 10.244.0.0/16, priority 49, uuid 9c0d1e2f",
                "    reg0 = 169.254.254.2;",
                "egress(dp=\"submariner_router\", inport=\"submariner_up_lrp\", outport=\"submariner_j_lrp\")",
                "ingress(dp=\"ovn_cluster_router\", inport=\"ovn_cluster_subm_lrp\")",
                "13. lr_in_ip_routing (northd.c:10100): ip4.dst == 10.244.1.0/24, priority 74, uuid 3a4b5c6d",
                "    reg0 = ip4.dst;",
                "egress(dp=\"ovn_cluster_router\", inport=\"ovn_cluster_subm_lrp\", outport=\"rtos-west-worker\")");

        List<OvnTraceText.RouterVisit> visits = OvnTraceText.routerVisits(trace, ROUTERS);

        assertThat(visits).extracting(v -> v.router() + " " + v.in() + " > " + v.out().orElse("-") + " " + v.translates()).containsExactly(
                "submariner_router submariner_up_lrp > submariner_j_lrp true",
                "ovn_cluster_router ovn_cluster_subm_lrp > rtos-west-worker false");
    }

    @Test
    void aReplyIsTranslatedBackInTheRoutersEgress() {
        String trace = String.join("\n",
                "ingress(dp=\"submariner_router\", inport=\"submariner_j_lrp\")",
                "13. lr_in_ip_routing (northd.c:10100): ip4.dst == 242.0.0.0/16, priority 49, uuid 9c0d1e2f",
                "    reg0 = 169.254.254.10;",
                "egress(dp=\"submariner_router\", inport=\"submariner_j_lrp\", outport=\"submariner_up_lrp\")",
                " 0. lr_out_undnat (northd.c:10800): ip4 && ((ip4.src == 10.244.1.10 && tcp.src == 8080)), priority 120, uuid 77aa88bb",
                "    ct_dnat;");

        assertThat(OvnTraceText.routerVisits(trace, ROUTERS)).singleElement()
                .satisfies(v -> assertThat(v.translates()).isTrue())
                .satisfies(v -> assertThat(v.out()).hasValue("submariner_up_lrp"));
    }
}
