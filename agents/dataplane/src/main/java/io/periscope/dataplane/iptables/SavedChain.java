package io.periscope.dataplane.iptables;

import io.periscope.plan.netfilter.Rule;

import java.util.List;

/** A chain of an {@code iptables-save} table, with all its rules in kernel order. */
public record SavedChain(String name, List<SavedRule> rules) {

    public SavedChain {
        rules = List.copyOf(rules);
    }

    /** The rules the model expresses, in order; foreign rules are left out. */
    public List<Rule> parsedRules() {
        return rules.stream().filter(SavedRule.Parsed.class::isInstance).map(r -> ((SavedRule.Parsed) r).rule()).toList();
    }

    public boolean hasForeignRules() {
        return rules.stream().anyMatch(SavedRule.Foreign.class::isInstance);
    }
}
