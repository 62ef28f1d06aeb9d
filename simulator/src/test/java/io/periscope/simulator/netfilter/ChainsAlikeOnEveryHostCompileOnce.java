package io.periscope.simulator.netfilter;

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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hosts compiled together share the compiled chain of a plan chain they both have, when nothing in it
 * reads the host and its jumps go to chains they share too; every other chain each host compiles for
 * itself, and a statistic rule draws with the serial it has when nothing is shared and names its host
 * in the choices it leaves.
 */
class ChainsAlikeOnEveryHostCompileOnce {

    // One object each, as the planner gives every node of a cluster kube-proxy's chains.
    private static final Chain SEP = new Chain("KUBE-SEP-A", List.of(
            Rule.of(new Target.SetMark(0x4000, 0x4000), new Match.Source(Ipv4Prefix.parse("10.1.0.5/32"), false)),
            Rule.of(new Target.Accept())));
    private static final Chain SVC = new Chain("KUBE-SVC-A", List.of(Rule.of(new Target.Jump("KUBE-SEP-A"))));
    private static final Chain SVC_RANDOM = new Chain("KUBE-SVC-R", List.of(
            Rule.of(new Target.Jump("KUBE-SEP-A"), new Match.RandomProbability(0.5)), Rule.of(new Target.Jump("KUBE-SEP-A"))));
    private static final Chain LOCAL = new Chain("KUBE-LOCAL", List.of(Rule.of(new Target.Jump("KUBE-SVC-A"), new Match.DestinationIsLocal(false))));
    private static final Chain IN_SET = new Chain("IN-SET", List.of(Rule.of(new Target.Accept(), new Match.SetMatch("S", true, false))));

    private static DataplanePlan plan(Chain... userChains) {
        List<Rule> forward = new ArrayList<>();
        for (Chain c : userChains) {
            forward.add(Rule.of(new Target.Jump(c.name())));
        }
        List<Chain> chains = new ArrayList<>();
        chains.add(new Chain("FORWARD", forward));
        chains.addAll(List.of(userChains));
        return new DataplanePlan(List.of(new NetfilterTable(Table.FILTER, chains)),
                List.of(new IpSet("S", IpSetType.HASH_NET, List.of())),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
    }

    /** The chain host {@code ruleset}'s FORWARD jumps to by its {@code index}-th rule. */
    private static CompiledChain userChain(Ruleset ruleset, int index) {
        return ruleset.builtin(Table.FILTER, Hook.FORWARD).rules[index].jump;
    }

    @Test
    void aChainAndTheChainsItJumpsToAreOneCompiledObjectOnEveryHost() {
        SharedCompilation shared = new SharedCompilation();
        Ruleset n1 = Ruleset.compile("n1", plan(SVC, SEP), address -> false, shared);
        Ruleset n2 = Ruleset.compile("n2", plan(SVC, SEP), address -> false, shared);

        assertThat(userChain(n2, 0)).isSameAs(userChain(n1, 0));
        assertThat(userChain(n2, 1)).isSameAs(userChain(n1, 1));
        assertThat(userChain(n2, 0).rules[0].jump).isSameAs(userChain(n1, 1));
        // The built-in chain is the host's own plan chain (a new object per plan here): its own.
        assertThat(n2.builtin(Table.FILTER, Hook.FORWARD)).isNotSameAs(n1.builtin(Table.FILTER, Hook.FORWARD));
    }

    @Test
    void hostsCompiledApartShareNothing() {
        Ruleset n1 = Ruleset.compile("n1", plan(SVC, SEP), address -> false);
        Ruleset n2 = Ruleset.compile("n2", plan(SVC, SEP), address -> false);

        assertThat(userChain(n2, 0)).isNotSameAs(userChain(n1, 0));
    }

    @Test
    void aChainWhoseJumpGoesToAnotherObjectOnAnotherHostIsCompiledByEach() {
        SharedCompilation shared = new SharedCompilation();
        Chain otherSep = new Chain("KUBE-SEP-A", List.of(Rule.of(new Target.Drop())));
        Ruleset n1 = Ruleset.compile("n1", plan(SVC, SEP), address -> false, shared);
        Ruleset n2 = Ruleset.compile("n2", plan(SVC, otherSep), address -> false, shared);

        assertThat(userChain(n2, 0)).isNotSameAs(userChain(n1, 0));
        assertThat(userChain(n2, 0).rules[0].jump).isSameAs(userChain(n2, 1));
        assertThat(userChain(n2, 1).rules[0].kind).isEqualTo(CompiledRule.DROP);
    }

    @Test
    void chainsThatReadTheHostAreEachHostsOwn() {
        SharedCompilation shared = new SharedCompilation();
        Ruleset n1 = Ruleset.compile("n1", plan(LOCAL, IN_SET, SVC, SEP), address -> false, shared);
        Ruleset n2 = Ruleset.compile("n2", plan(LOCAL, IN_SET, SVC, SEP), address -> true, shared);

        for (int i = 0; i < 2; i++) {
            assertThat(userChain(n2, i)).as("chain %d", i).isNotSameAs(userChain(n1, i));
        }
        // What they jump to that reads no host is still shared.
        assertThat(userChain(n2, 0).rules[0].jump).isSameAs(userChain(n1, 0).rules[0].jump);
    }

    @Test
    void aChainOfStatisticRulesIsSharedAndEachHostDrawsWithItsOwnSerials() {
        SharedCompilation shared = new SharedCompilation();
        // The same chain object, third on n1 and first on n2: after FORWARD's three rules and six more on n1.
        Ruleset n1 = Ruleset.compile("n1", plan(SVC, SEP, SVC_RANDOM), address -> false, shared);
        Ruleset n2 = Ruleset.compile("n2", plan(SVC_RANDOM, SVC, SEP), address -> false, shared);
        CompiledChain random = userChain(n1, 2);
        CompiledRule first = random.rules[0];

        assertThat(userChain(n2, 0)).isSameAs(random);
        assertThat(n1.serialOf(random, first)).isEqualTo(6);
        assertThat(n2.serialOf(random, first)).isEqualTo(3);
        assertThat(n1.choice(first, true)).isEqualTo("n1 filter/KUBE-SVC-R: statistic 0.50000 matched");
        assertThat(n2.choice(first, false)).isEqualTo("n2 filter/KUBE-SVC-R: statistic 0.50000 not matched");
    }

    @Test
    void aStatisticRuleKeepsTheSerialItHasWithNothingShared() {
        SharedCompilation shared = new SharedCompilation();
        Ruleset.compile("n1", plan(SVC, SEP, SVC_RANDOM), address -> false, shared);
        Ruleset sharing = Ruleset.compile("n2", plan(SVC, SEP, SVC_RANDOM), address -> false, shared);
        Ruleset alone = Ruleset.compile("n2", plan(SVC, SEP, SVC_RANDOM), address -> false);

        assertThat(userChain(sharing, 0)).isSameAs(userChain(Ruleset.compile("n3", plan(SVC, SEP, SVC_RANDOM), address -> false, shared), 0));
        CompiledChain withSharing = userChain(sharing, 2);
        CompiledChain without = userChain(alone, 2);
        // FORWARD's three rules, KUBE-SVC-A's one and KUBE-SEP-A's two come first.
        for (int i = 0; i < 2; i++) {
            assertThat(sharing.serialOf(withSharing, withSharing.rules[i])).isEqualTo(alone.serialOf(without, without.rules[i])).isEqualTo(6 + i);
        }
    }

    @Test
    void theFootprintCountsASharedChainOnEveryHostButAsOneObject() {
        SharedCompilation shared = new SharedCompilation();
        Ruleset n1 = Ruleset.compile("n1", plan(SVC, SEP), address -> false, shared);
        Ruleset n2 = Ruleset.compile("n2", plan(SVC, SEP), address -> false, shared);

        // Each host: FORWARD (two jumps, its own), KUBE-SVC-A (one rule) and KUBE-SEP-A (two), both shared.
        assertThat(NetfilterFootprint.of(List.of(n1, n2))).isEqualTo(new NetfilterFootprint(2, 6, 4, 10, 7));
    }
}
