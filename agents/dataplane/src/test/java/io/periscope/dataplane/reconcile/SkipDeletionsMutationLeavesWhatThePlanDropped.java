package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.IpSetChange;
import io.periscope.dataplane.diff.DataplaneDiff;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault the deletion scenarios are proven against must really be that fault: it keeps every
 * rule, member and chain a plan dropped, still makes every addition, and, with only deletions
 * left to do, does nothing (so the agents running it report themselves converged, as a buggy
 * agent would, and the scenario's kernel checks are what catch it).
 */
class SkipDeletionsMutationLeavesWhatThePlanDropped {

    private static final String CHAIN = "SUBMARINER-GN-INGRESS";

    private static Rule ingress(String global, String pod) {
        return Rule.of(new Target.Dnat(Ipv4Address.parse(pod), OptionalInt.empty()), new Match.Destination(Ipv4Prefix.parse(global + "/32")));
    }

    private static DataplanePlan plan(List<Rule> rules, List<String> members, boolean extraChain) {
        List<Chain> chains = extraChain ? List.of(new Chain(CHAIN, rules), new Chain("SM-GN-EGRESS-PODS", List.of()))
                : List.of(new Chain(CHAIN, rules));
        return new DataplanePlan(List.of(new NetfilterTable(Table.NAT, chains)),
                List.of(new IpSet("SM-GN-PODS", IpSetType.HASH_IP, members.stream().map(m -> Ipv4Prefix.parse(m + "/32")).toList())),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
    }

    @Test
    void onlyDeletionsLeftIsNothingToDo() {
        DataplanePlan running = plan(List.of(ingress("169.254.1.254", "10.244.1.10"), ingress("169.254.1.253", "10.244.1.11")),
                List.of("10.244.1.10", "10.244.1.11"), true);
        DataplanePlan edited = plan(List.of(ingress("169.254.1.253", "10.244.1.11")), List.of("10.244.1.11"), false);

        DataplaneDiff honest = DataplaneDiff.between(running, edited);
        DataplaneDiff faulty = SkipDeletionsMutation.apply(honest);

        assertThat(honest.changes()).isNotEmpty();
        assertThat(faulty.changes()).isEmpty();
    }

    @Test
    void anAdditionIsMadeAndWhatWasDroppedStays() {
        Rule kept = ingress("169.254.1.253", "10.244.1.11");
        Rule dropped = ingress("169.254.1.254", "10.244.1.10");
        Rule added = ingress("169.254.1.252", "10.244.1.12");
        DataplanePlan running = plan(List.of(dropped, kept), List.of("10.244.1.10"), false);
        DataplanePlan edited = plan(List.of(kept, added), List.of("10.244.1.12"), false);

        DataplaneDiff faulty = SkipDeletionsMutation.apply(DataplaneDiff.between(running, edited));

        assertThat(faulty.changes(ChainChange.class)).singleElement()
                .satisfies(c -> assertThat(c.after().orElseThrow().inOrder()).containsExactlyInAnyOrder(kept, added, dropped));
        assertThat(faulty.changes(IpSetChange.class)).singleElement()
                .satisfies(c -> assertThat(c.after().orElseThrow().members())
                        .containsExactlyInAnyOrder(Ipv4Prefix.parse("10.244.1.12/32"), Ipv4Prefix.parse("10.244.1.10/32")));
    }
}
