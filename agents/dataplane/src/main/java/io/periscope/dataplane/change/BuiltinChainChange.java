package io.periscope.dataplane.change;

import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;

import java.util.List;

/**
 * Periscope's rules in a built-in chain (PREROUTING, FORWARD, ...) go from {@code before} (the
 * ones found, in kernel order) to {@code after}, which end up first in the chain in plan order.
 * Everyone else's rules in the chain stay, in their order, after Periscope's. {@code before} may
 * equal {@code after} when Periscope's rules are present but no longer at the top.
 */
public record BuiltinChainChange(Table table, String chain, List<Rule> before, List<Rule> after) implements DataplaneChange {

    public BuiltinChainChange {
        before = List.copyOf(before);
        after = List.copyOf(after);
        if (!table.isBuiltin(chain)) {
            throw new IllegalArgumentException(chain + " is not a built-in chain of " + table.iptablesName());
        }
    }

    @Override
    public Tool tool() {
        return Tool.IPTABLES;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty();
    }
}
