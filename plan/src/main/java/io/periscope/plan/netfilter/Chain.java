package io.periscope.plan.netfilter;

import java.util.List;

/**
 * A chain with the rules Periscope wants in it. For a chain Periscope owns (SUBMARINER-*, SM-GN-*,
 * KUBE-* in the lab) this is the whole chain; for a built-in chain (PREROUTING, ...) it is only
 * Periscope's own rules, the jumps into its chains, which go first in the built-in chain.
 */
public record Chain(String name, List<Rule> rules) {

    public Chain {
        rules = List.copyOf(rules);
    }

    public static Chain empty(String name) {
        return new Chain(name, List.of());
    }
}
