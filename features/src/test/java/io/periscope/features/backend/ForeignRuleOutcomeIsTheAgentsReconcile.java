package io.periscope.features.backend;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulator's answer about someone else's rule is what the agents' reconcile does to it, so it can say "gone". */
class ForeignRuleOutcomeIsTheAgentsReconcile {

    private static final String INGRESS = "SUBMARINER-GN-INGRESS";

    private static DataplanePlan plan(List<Rule> ingress) {
        return new DataplanePlan(List.of(new NetfilterTable(Table.NAT, List.of(new Chain("PREROUTING", List.of(Rule.of(Target.jump(INGRESS)))),
                new Chain(INGRESS, ingress)))), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
    }

    private final DataplanePlan before = plan(List.of(Rule.of(Target.jump("KUBE-SVC-X"), new Match.Destination(Ipv4Prefix.parse("169.254.1.254/32")))));
    private final DataplanePlan after = plan(List.of());

    @Test
    void aRuleInABuiltInChainStaysWhileTheAgentsRemoveTheirs() {
        assertThat(ForeignRuleOutcome.kept(before, after, Table.NAT, "PREROUTING", "-d 192.0.2.10/32 -j ACCEPT")).isTrue();
    }

    @Test
    void aRuleInAChainTheAgentsOwnIsGone() {
        assertThat(ForeignRuleOutcome.kept(before, after, Table.NAT, INGRESS, "-d 192.0.2.10/32 -j ACCEPT")).isFalse();
    }
}
