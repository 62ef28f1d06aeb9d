package io.periscope.simulator.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A traversal that follows both ways of {@code statistic} rules gives one run per outcome; the runs
 * share what came before the fork, so each outcome's rule hits must be the ones on its own way: a hit
 * recorded after the fork, by either run, before or after the other's, reaches no other outcome.
 */
class EachOutcomeOfAForkKeepsItsOwnHits {

    private static final Packet PACKET = Packet.of(Ipv4Address.of(10, 1, 0, 4), Ipv4Address.of(10, 2, 0, 5), 40000, 80, Protocol.TCP);

    private static Rule mark(int bit) {
        return Rule.of(new Target.SetMark(bit, bit));
    }

    private static Rule sometimes(String chain) {
        return Rule.of(new Target.Jump(chain), new Match.RandomProbability(0.5));
    }

    private static List<TableRun> outcomes(int hitsBeforeTheFork) {
        List<Rule> prerouting = new ArrayList<>();
        for (int i = 0; i < hitsBeforeTheFork; i++) {
            prerouting.add(mark(1 << i));
        }
        // Two forks, one after the other: taken, then the rest of the way for those not taken.
        prerouting.add(sometimes("TAKEN-1"));
        prerouting.add(sometimes("TAKEN-2"));
        prerouting.add(mark(0x10000));
        prerouting.add(mark(0x20000));
        DataplanePlan plan = new DataplanePlan(List.of(new NetfilterTable(Table.MANGLE, List.of(
                new Chain("PREROUTING", prerouting),
                new Chain("TAKEN-1", List.of(mark(0x100), mark(0x200), mark(0x400), mark(0x800), mark(0x1000), Rule.of(new Target.Accept()))),
                new Chain("TAKEN-2", List.of(mark(0x2000), Rule.of(new Target.Accept())))))),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
        Ruleset ruleset = Ruleset.compile("n1", plan, address -> false);
        List<TableRun> outcomes = new ArrayList<>();
        ruleset.run(ruleset.builtin(Table.MANGLE, Hook.PREROUTING), new TableRun(PACKET, "eth0", null, 0, 0, 0, true), outcomes::add);
        return outcomes;
    }

    /** The marks each hit set, in order. */
    private static List<Integer> marks(TableRun run) {
        List<Integer> marks = new ArrayList<>();
        for (int i = 0; i < run.hits(); i++) {
            marks.add(run.hitMark(i));
        }
        return marks;
    }

    @Test
    void eachOutcomeHasTheHitsBeforeTheForkAndItsOwnAfter() {
        List<TableRun> outcomes = outcomes(1);

        assertThat(outcomes).hasSize(3);
        assertThat(outcomes).extracting(EachOutcomeOfAForkKeepsItsOwnHits::marks).containsExactlyInAnyOrder(
                List.of(0x1, 0x101, 0x301, 0x701, 0xf01, 0x1f01, 0x1f01),
                List.of(0x1, 0x2001, 0x2001),
                List.of(0x1, 0x10001, 0x30001));
        assertThat(outcomes).extracting(TableRun::mark).containsExactlyInAnyOrder(0x1f01, 0x2001, 0x30001);
    }

    @Test
    void hitsBeforeTheForkThatFilledTheFirstArraysStayWithEveryOutcome() {
        List<TableRun> outcomes = outcomes(4);

        assertThat(outcomes).extracting(EachOutcomeOfAForkKeepsItsOwnHits::marks).containsExactlyInAnyOrder(
                List.of(0x1, 0x3, 0x7, 0xf, 0x10f, 0x30f, 0x70f, 0xf0f, 0x1f0f, 0x1f0f),
                List.of(0x1, 0x3, 0x7, 0xf, 0x200f, 0x200f),
                List.of(0x1, 0x3, 0x7, 0xf, 0x1000f, 0x3000f));
    }

    @Test
    void aRunStartedAgainAfterTheForkLeavesTheOtherOutcomesHitsAlone() {
        List<TableRun> outcomes = outcomes(2);
        TableRun last = outcomes.getLast();
        List<List<Integer>> before = outcomes.stream().map(EachOutcomeOfAForkKeepsItsOwnHits::marks).toList();

        // The walk reuses a run for the next table once its outcome is taken over.
        last.start(PACKET, "eth0", null, 0x40000, 0, 0, true);
        Ruleset input = Ruleset.compile("n1", new DataplanePlan(List.of(new NetfilterTable(Table.FILTER, List.of(
                        new Chain("INPUT", List.of(mark(0x80000), Rule.of(new Target.Accept())))))),
                        List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of()),
                address -> false);
        input.runOnce(input.builtin(Table.FILTER, Hook.INPUT), last);

        assertThat(marks(last)).containsExactly(0xc0000, 0xc0000);
        assertThat(outcomes.subList(0, 2).stream().map(EachOutcomeOfAForkKeepsItsOwnHits::marks).toList())
                .isEqualTo(before.subList(0, 2));
    }
}
