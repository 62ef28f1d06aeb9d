package io.periscope.plan.netfilter;

import java.util.ArrayList;
import java.util.List;

/**
 * A chain with the rules Periscope wants in it. For a chain Periscope owns (SUBMARINER-*, SM-GN-*,
 * KUBE-* in the lab) this is the whole chain, all in {@code rules}. For a built-in chain (PREROUTING,
 * ...) it is only Periscope's own rules, placed as upstream places them ({@link HookPosition}):
 * {@code rules} go first in the built-in chain, {@code last} go below everyone else's rules.
 */
public record Chain(String name, List<Rule> rules, List<Rule> last) {

    public Chain {
        rules = List.copyOf(rules);
        last = List.copyOf(last);
    }

    /** A chain whose rules all go first (or, for an owned chain, all of it). */
    public Chain(String name, List<Rule> rules) {
        this(name, rules, List.of());
    }

    public static Chain empty(String name) {
        return new Chain(name, List.of());
    }

    /** The rules placed at {@code position}. */
    public List<Rule> rules(HookPosition position) {
        return switch (position) {
            case FIRST -> rules;
            case LAST -> last;
        };
    }

    /** Every rule, first ones then last ones: the chain's order where no one else has rules in it. */
    public List<Rule> inOrder() {
        if (last.isEmpty()) {
            return rules;
        }
        List<Rule> all = new ArrayList<>(rules);
        all.addAll(last);
        return List.copyOf(all);
    }
}
