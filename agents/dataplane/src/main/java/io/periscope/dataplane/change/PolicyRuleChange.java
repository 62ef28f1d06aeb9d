package io.periscope.dataplane.change;

import io.periscope.plan.routing.PolicyRule;

import java.util.Optional;

/** An {@code ip rule} is added or deleted; rules have no identity besides their content. */
public record PolicyRuleChange(Optional<PolicyRule> before, Optional<PolicyRule> after) implements DataplaneChange {

    public PolicyRuleChange {
        if (before.isPresent() == after.isPresent()) {
            throw new IllegalArgumentException("a policy rule change either adds or deletes one rule");
        }
    }

    public static PolicyRuleChange add(PolicyRule rule) {
        return new PolicyRuleChange(Optional.empty(), Optional.of(rule));
    }

    public static PolicyRuleChange delete(PolicyRule rule) {
        return new PolicyRuleChange(Optional.of(rule), Optional.empty());
    }

    public PolicyRule rule() {
        return after.or(() -> before).orElseThrow();
    }

    @Override
    public Tool tool() {
        return Tool.IP;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty();
    }
}
