package io.periscope.simulator.engine;

import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.netfilter.CompiledChain;
import io.periscope.simulator.netfilter.CompiledRule;
import io.periscope.simulator.netfilter.Hook;
import io.periscope.simulator.netfilter.Ruleset;
import io.periscope.simulator.netfilter.TableRun;
import io.periscope.simulator.netfilter.Verdict;
import io.periscope.simulator.trace.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A packet's pass through the netfilter tables of one part of the kernel's path (the stage lists
 * below, in the kernel's order): each table's built-in chain runs, its marks, MSS and verdict are taken
 * over, the nat table's rule is applied by {@link Nat}, and the packet goes on to what the walker
 * does next. The walker decides which part comes when; this class only runs one.
 */
final class NetfilterPass {

    /**
     * One table's built-in chain at one hook: in a {@link Part}, without a chain; in a host's
     * {@link #present} stages, with that host's chain (null for a nat stage without rules).
     */
    record Stage(Table table, Hook hook, boolean nat, boolean destinationHook, CompiledChain chain) {

        Stage(Table table, Hook hook) {
            this(table, hook, table == Table.NAT, hook == Hook.PREROUTING || hook == Hook.OUTPUT, null);
        }

        /** This stage on a host with {@code ruleset}. */
        Stage on(Ruleset ruleset) {
            return new Stage(table, hook, nat, destinationHook, ruleset.builtin(table, hook));
        }
    }

    /** The parts of the kernel's path the walker runs, each with its tables in the kernel's order (see Dataplane). */
    enum Part {
        PREROUTING(new Stage(Table.RAW, Hook.PREROUTING), new Stage(Table.MANGLE, Hook.PREROUTING), new Stage(Table.NAT, Hook.PREROUTING)),
        INPUT(new Stage(Table.MANGLE, Hook.INPUT), new Stage(Table.FILTER, Hook.INPUT), new Stage(Table.NAT, Hook.INPUT)),
        FORWARD_AND_POSTROUTING(new Stage(Table.MANGLE, Hook.FORWARD), new Stage(Table.FILTER, Hook.FORWARD),
                new Stage(Table.MANGLE, Hook.POSTROUTING), new Stage(Table.NAT, Hook.POSTROUTING)),
        POSTROUTING(new Stage(Table.MANGLE, Hook.POSTROUTING), new Stage(Table.NAT, Hook.POSTROUTING)),
        RAW_OUTPUT(new Stage(Table.RAW, Hook.OUTPUT)),
        OUTPUT(new Stage(Table.MANGLE, Hook.OUTPUT), new Stage(Table.NAT, Hook.OUTPUT), new Stage(Table.FILTER, Hook.OUTPUT));

        private final Stage[] stages;

        Part(Stage... stages) {
            this.stages = stages;
        }
    }

    /**
     * For each {@link Part}, by ordinal, the stages that can do anything on a host with {@code ruleset},
     * each with its chain: those whose chain has rules, and every nat stage (a packet of a known
     * connection gets the translation stored in it whether or not the chain has rules). Most hosts
     * have few tables, and every packet passes every part of its path: a stage left out, or its chain
     * at hand, is a lookup per hop less.
     */
    static Stage[][] present(Ruleset ruleset) {
        Stage[][] present = new Stage[Part.values().length][];
        for (Part part : Part.values()) {
            present[part.ordinal()] = java.util.Arrays.stream(part.stages).map(stage -> stage.on(ruleset))
                    .filter(stage -> stage.nat() || stage.chain() != null).toArray(Stage[]::new);
        }
        return present;
    }

    private final boolean followAll;
    /** The hosts, for a fork into endpoints to find its pods' and their clusters. */
    private final CompiledNetwork hosts;

    /**
     * @param followAll follow both ways of a {@code statistic} match instead of the packet's one
     * @param hosts     the network walked
     */
    NetfilterPass(boolean followAll, CompiledNetwork hosts) {
        this.followAll = followAll;
        this.hosts = hosts;
    }

    /** Runs the tables of {@code part}, then hands the packet to {@code then} (once per outcome, when a table forks). */
    void run(Visit v, Part part, Consumer<Visit> then) {
        pass(v, v.host.stages[part.ordinal()], 0, then);
    }

    /**
     * Runs the tables of {@code stages} from {@code from} on, in order, then hands the packet to
     * {@code then}; a packet a table drops goes no further. Most tables cannot fork, so this is a
     * loop; at one that forks (a {@code statistic} rule followed both ways), each outcome goes on
     * with the tables after it on its own.
     *
     * <p>The nat table is consulted for the first packet of a connection only; every later packet,
     * in either direction, gets the translation stored in its connection instead.
     */
    private void pass(Visit v, Stage[] stages, int from, Consumer<Visit> then) {
        for (int i = from; i < stages.length; i++) {
            Stage stage = stages[i];
            // NAT works on conntrack entries: a packet without one (untracked, or INVALID) is never translated.
            if (stage.nat() && (v.untracked || v.invalid)) {
                continue;
            }
            if (stage.nat() && !v.isNew) {
                Nat.stored(v, stage.destinationHook());
                continue;
            }
            CompiledChain chain = stage.chain();
            // POSTROUTING has no input device (ip_output passes none), so -i never matches there. A
            // chain of TCPMSS targets that would not lower the packet's MSS changes nothing either;
            // an observer is told of the chains whose rules could match, so it still sees that one.
            if (chain == null || !chain.mayActOn(v.packet, stage.hook() == Hook.POSTROUTING ? null : v.in) && !seesEveryChain(v)
                    || v.observer == null && chain.keepsMss(v.mss)) {
                continue;
            }
            TableRun start = start(v, stage.hook());
            if (Ruleset.mayFork(chain, start)) {
                fork(v, chain, start, stages, i, then);
                return;
            }
            if (!takeOver(v, v.host.ruleset.runOnce(chain, start), stage)) {
                return;
            }
        }
        then.accept(v);
    }

    private static boolean seesEveryChain(Visit v) {
        return v.observer != null && v.observer.seesEveryChain();
    }

    private void fork(Visit v, CompiledChain chain, TableRun start, Stage[] stages, int at, Consumer<Visit> then) {
        List<TableRun> outcomes = new ArrayList<>(2);
        v.host.ruleset.run(chain, start, outcomes::add);
        if (stages[at].nat() && outcomes.size() > 2 && v.memo != null && v.memo.endpointClasses() != null) {
            // kube-proxy's fork into a service's endpoints, in a walk that only counts.
            EndpointFold.walk(v, v.host.id, outcomes, hosts, (b, o) -> takeOver(b, o, stages[at]), b -> pass(b, stages, at + 1, then));
            return;
        }
        for (int i = 0; i < outcomes.size(); i++) {
            Visit b = i == outcomes.size() - 1 ? v : v.copy();
            if (takeOver(b, outcomes.get(i), stages[at])) {
                pass(b, stages, at + 1, then);
            }
        }
    }

    /** A table's outcome applied, with its translation for nat; false when the packet went no further. */
    private static boolean takeOver(Visit v, TableRun o, Stage stage) {
        if (!apply(v, o)) {
            return false;
        }
        return !stage.nat() || o.verdict() != Verdict.NAT || Nat.translate(v, o.decidedBy(), stage.hook());
    }

    /**
     * The branch's run object, started afresh: every outcome of the previous table has been taken over
     * by then ({@link #apply} reads all of it before the walk goes on), and a copied Visit gets its own.
     */
    private TableRun start(Visit v, Hook hook) {
        // POSTROUTING has no input device (ip_output passes none), so -i never matches there.
        String in = hook == Hook.POSTROUTING ? null : v.in;
        if (v.run == null) {
            v.run = new TableRun(v.packet, in, v.out, v.mark, v.connmark, ConntrackLayer.states(v), followAll);
        } else {
            v.run.start(v.packet, in, v.out, v.mark, v.connmark, ConntrackLayer.states(v), followAll);
        }
        // The clamp reads the packet's source and the output device as they are now: a later table may change them.
        return v.run.withMss(v.mss, v.host.mssClamp, v.out, v.packet.src()).observedBy(v.observer, v.host.id).keepingChoices(v.record);
    }

    /** Takes over what the rules did; false when the packet was dropped (the branch has ended). */
    private static boolean apply(Visit v, TableRun o) {
        int mssBefore = v.mss;
        v.mark = o.mark();
        v.mss = o.mss();
        if (!v.untracked && !v.invalid) {
            v.connmark = o.connmark();
        }
        if (o.notrack() && !v.untracked) {
            v.untracked = true;
        }
        if (o.hits() == 0 && o.choices().isEmpty() && o.verdict() != Verdict.DROP) {
            return true;
        }
        return record(v, o, mssBefore);
    }

    /**
     * The steps and choices of a traversal that did something; false when it dropped the packet.
     * {@code mss} is the packet's MSS option before the traversal.
     */
    private static boolean record(Visit v, TableRun o, int mss) {
        for (int i = 0; v.record && i < o.hits(); i++) {
            CompiledRule rule = o.hitRule(i);
            Target target = rule.target();
            if (target instanceof Target.Accept || target instanceof Target.Drop) {
                v.step(new Step.Filter(rule.ref(), target instanceof Target.Accept, v.packet));
            } else if (target instanceof Target.NoTrack) {
                v.step(new Step.NoTrack(rule.ref(), v.packet));
            } else if (target instanceof Target.SetMss || target instanceof Target.ClampMssToPmtu) {
                v.step(new Step.Mss(rule.ref(), mss, o.hitMark(i), v.packet));
                mss = o.hitMark(i);
            } else {
                v.step(new Step.Mark(rule.ref(), target instanceof Target.SetConnMark, o.hitMark(i), v.packet));
            }
        }
        if (v.record && !o.choices().isEmpty()) {
            v.choices = v.choices.addAll(o.choices());
        }
        if (o.verdict() == Verdict.DROP) {
            Endings.dropped(v, "dropped by " + o.decidedBy().ref() + " on " + v.host.name);
            return false;
        }
        return true;
    }
}
