package io.periscope.simulator.netfilter;

import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.RuleRef;

/**
 * A rule ready to run. The deterministic matches are tested first; the {@code statistic} ones are
 * folded into one probability that the walk forks on only when everything else matched, so a rule
 * that cannot match anyway never doubles the paths.
 */
public final class CompiledRule {

    /** A compiled match: true when the packet satisfies it. */
    @FunctionalInterface
    interface Condition {
        boolean test(TableRun run);
    }

    private final Rule rule;
    private final RuleRef ref;
    private final Condition[] conditions;
    private final double probability;
    private final boolean random;
    private final int serial;
    CompiledChain jump;

    CompiledRule(Rule rule, RuleRef ref, Condition[] conditions, double probability, boolean random, int serial) {
        this.rule = rule;
        this.ref = ref;
        this.conditions = conditions;
        this.probability = probability;
        this.random = random;
        this.serial = serial;
    }

    public Rule rule() {
        return rule;
    }

    public Target target() {
        return rule.target();
    }

    /** The table, chain and {@code iptables-save} text of the rule, for trace steps. */
    public RuleRef ref() {
        return ref;
    }

    boolean matchesDeterministic(TableRun run) {
        for (Condition c : conditions) {
            if (!c.test(run)) {
                return false;
            }
        }
        return true;
    }

    boolean random() {
        return random;
    }

    double probability() {
        return probability;
    }

    int serial() {
        return serial;
    }
}
